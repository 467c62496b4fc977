package github

import (
	"errors"
	"net/http"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

// Status is the HTTP status GitHub answered a failed request with, and
// whether that answer was a rate limit (a 429, or a 403 for the primary
// or secondary limit, as the retry policy reads them). It is 0 when the request got no answer from
// GitHub (a timeout, a broken connection, the blob store). The worker's
// one classification of errors (publish.FinalOf) reads it: a 4xx that is no
// rate limit is final, anything else is worth another try.
func Status(err error) (status int, rateLimited bool) {
	var (
		rl *github.RateLimitError
		ab *github.AbuseRateLimitError
		er *github.ErrorResponse
		se *statusError
	)
	switch {
	case errors.As(err, &se):
		_, limited := RetryPolicy{}.withDefaults().rateLimitWait(se.resp)
		return se.resp.StatusCode, limited
	case errors.As(err, &rl):
		return responseStatus(rl.Response, http.StatusForbidden), true
	case errors.As(err, &ab):
		return responseStatus(ab.Response, http.StatusForbidden), true
	case errors.As(err, &er):
		// A limit the transport would not wait out (longer than MaxWait)
		// comes back as it was answered.
		_, limited := RetryPolicy{}.withDefaults().rateLimitWait(er.Response)
		return responseStatus(er.Response, 0), limited
	case errors.Is(err, port.ErrNotFound):
		return http.StatusNotFound, false
	}
	return 0, false
}

// statusError is a failed request whose answer go-github did not turn
// into its typed error (an artifact download's redirect).
type statusError struct {
	resp *http.Response
	err  error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

func responseStatus(r *http.Response, otherwise int) int {
	if r == nil {
		return otherwise
	}
	return r.StatusCode
}
