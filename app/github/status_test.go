package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

func TestStatusSaysWhatGitHubAnswered(t *testing.T) {
	answer := func(status int, header http.Header) *http.Response {
		return &http.Response{StatusCode: status, Header: header, Request: &http.Request{Method: "GET"}}
	}
	tests := map[string]struct {
		err         error
		status      int
		rateLimited bool
	}{
		"a 422":              {&github.ErrorResponse{Response: answer(422, nil)}, 422, false},
		"a plain 403":        {&github.ErrorResponse{Response: answer(403, nil)}, 403, false},
		"a 403 rate limit":   {&github.ErrorResponse{Response: answer(403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"1"}})}, 403, true},
		"a 429":              {&github.ErrorResponse{Response: answer(429, nil)}, 429, true},
		"a 502":              {&github.ErrorResponse{Response: answer(502, nil)}, 502, false},
		"the primary limit":  {&github.RateLimitError{Response: answer(403, nil)}, 403, true},
		"a secondary limit":  {&github.AbuseRateLimitError{Response: answer(403, nil)}, 403, true},
		"wrapped":            {fmt.Errorf("get run: %w", &github.ErrorResponse{Response: answer(410, nil)}), 410, false},
		"a redirect refused": {&statusError{resp: answer(403, nil), err: errors.New("unexpected status code: 403 Forbidden")}, 403, false},
		"not found":          {fmt.Errorf("get file: %w: gone", port.ErrNotFound), 404, false},
		"no answer":          {context.DeadlineExceeded, 0, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			status, limited := Status(tc.err)
			if status != tc.status || limited != tc.rateLimited {
				t.Errorf("Status = %d, %v; want %d, %v", status, limited, tc.status, tc.rateLimited)
			}
		})
	}
}
