package github

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// RetryPolicy says how outgoing requests are retried: 5xx answers with
// exponential backoff; GitHub's primary and secondary rate limits (403 or
// 429 with Retry-After, or X-RateLimit-Remaining 0 and X-RateLimit-Reset)
// by waiting as long as GitHub asks, but never longer than MaxWait at once;
// other 4xx never. The total wait of one request is therefore at most
// MaxRetries × MaxWait. A POST with a side effect (a comment, a check run,
// a workflow dispatch) is never retried on a 5xx answer or a broken
// connection, since the first attempt may have taken effect: the adapter
// checks first (see CreateComment). Each attempt has a response timeout.
type RetryPolicy struct {
	MaxRetries int           // default 4
	MinWait    time.Duration // first 5xx backoff, doubling; default 500ms
	MaxWait    time.Duration // the longest single wait; default 60s
	// Now is the clock used to read X-RateLimit-Reset; default time.Now.
	Now func() time.Time
	// Pause, when set, is called with each wait instead of the transport
	// sleeping: tests inject a fake clock here so nothing really waits.
	Pause func(time.Duration)
	// Timeout bounds one attempt of an API request, answer included
	// (default 30s); BlobTimeout one attempt of an artifact download from
	// blob storage (default 5 minutes).
	Timeout, BlobTimeout time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxRetries == 0 {
		p.MaxRetries = 4
	}
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	if p.MinWait <= 0 {
		p.MinWait = 500 * time.Millisecond
	}
	if p.MaxWait <= 0 {
		p.MaxWait = 60 * time.Second
	}
	if p.Timeout <= 0 {
		p.Timeout = 30 * time.Second
	}
	if p.BlobTimeout <= 0 {
		p.BlobTimeout = 5 * time.Minute
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

// defaultRateLimitWait is GitHub's advice when a secondary rate limit
// names no time: wait at least a minute.
const defaultRateLimitWait = time.Minute

// rateLimitWait reports whether resp is a rate limit and how long GitHub
// asks to wait.
func (p RetryPolicy) rateLimitWait(resp *http.Response) (time.Duration, bool) {
	if resp == nil || (resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests) {
		return 0, false
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		if s, err := strconv.Atoi(ra); err == nil && s >= 0 {
			return time.Duration(s) * time.Second, true
		}
		if t, err := http.ParseTime(ra); err == nil {
			return max(t.Sub(p.Now()), 0), true
		}
		return defaultRateLimitWait, true
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if s, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(s, 0).Sub(p.Now())+time.Second, 0), true
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return defaultRateLimitWait, true
	}
	return 0, false // a plain 403: permission denied, not retried
}

func (p RetryPolicy) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		if sideEffect(ctx) {
			return false, nil // it may have reached GitHub: the caller checks
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	if wait, ok := p.rateLimitWait(resp); ok {
		return wait <= p.MaxWait, nil // refused before it took effect
	}
	if resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented {
		return !sideEffect(ctx), nil
	}
	return false, nil
}

type requestKey struct{}

// sideEffect reports whether the request of ctx (marked by markRequests)
// is a POST that changes something when it is repeated: everything but
// reactions (GitHub answers an existing one) and installation tokens.
func sideEffect(ctx context.Context) bool {
	r, ok := ctx.Value(requestKey{}).(*http.Request)
	if !ok || r.Method != http.MethodPost {
		return false
	}
	p := r.URL.Path
	return !strings.HasSuffix(p, "/reactions") && !strings.HasSuffix(p, "/access_tokens")
}

// markRequests puts each request in its own context, for checkRetry.
type markRequests struct{ next http.RoundTripper }

func (m markRequests) RoundTrip(r *http.Request) (*http.Response, error) {
	return m.next.RoundTrip(r.WithContext(context.WithValue(r.Context(), requestKey{}, r)))
}

func (p RetryPolicy) backoff(_, _ time.Duration, attempt int, resp *http.Response) time.Duration {
	wait, ok := p.rateLimitWait(resp)
	if !ok {
		wait = p.MinWait << min(attempt, 20)
	}
	wait = min(wait, p.MaxWait)
	if p.Pause != nil {
		p.Pause(wait)
		return 0
	}
	return wait
}

// retryTransport wraps base in the retry policy, each attempt bounded by
// timeout.
func retryTransport(base http.RoundTripper, p RetryPolicy, timeout time.Duration) http.RoundTripper {
	p = p.withDefaults()
	c := retryablehttp.NewClient()
	// Redirects are not followed here: the artifact download must see
	// GitHub's 302 and fetch the blob itself, without Authorization, and
	// the clients above decide which redirects to follow.
	c.HTTPClient = &http.Client{
		Transport:     base,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	c.Logger = nil
	c.RetryMax = p.MaxRetries
	c.RetryWaitMin = p.MinWait
	c.RetryWaitMax = p.MaxWait
	c.CheckRetry = p.checkRetry
	c.Backoff = p.backoff
	// Hand the last answer back (a 404, a rate limit we will not wait
	// out) so go-github turns it into its typed error.
	c.ErrorHandler = retryablehttp.PassthroughErrorHandler
	return markRequests{&retryablehttp.RoundTripper{Client: c}}
}
