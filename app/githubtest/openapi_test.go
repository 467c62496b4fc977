package githubtest

import (
	"strings"
	"testing"
)

func TestValidateAgainstGitHubDescription(t *testing.T) {
	sp, reason, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	if sp == nil {
		t.Skip(reason)
	}
	tests := map[string]struct {
		method, path, body string
		want               string // substring of a problem; "" means valid
	}{
		"create check run in progress": {"POST", "/repos/o/r/check-runs", `{"name":"planwarden","head_sha":"abc","status":"in_progress","output":{"title":"t","summary":"s"}}`, ""},
		"check run without head_sha":   {"POST", "/repos/o/r/check-runs", `{"name":"planwarden"}`, `"head_sha"`},
		"bad conclusion":               {"PATCH", "/repos/o/r/check-runs/5", `{"conclusion":"passed"}`, "not one of"},
		"output without summary":       {"PATCH", "/repos/o/r/check-runs/5", `{"output":{"title":"t"}}`, `"summary"`},
		"reaction not in the list":     {"POST", "/repos/o/r/issues/comments/9/reactions", `{"content":"thumbsup"}`, "not one of"},
		"dispatch without ref":         {"POST", "/repos/o/r/actions/workflows/plan.yml/dispatches", `{"inputs":{"pr":"1"}}`, `"ref"`},
		"contents path with slashes":   {"GET", "/repos/o/r/contents/.github/planwarden.yml", ``, ""},
		"wrong method":                 {"DELETE", "/repos/o/r/check-runs", ``, "does not take"},
		"no such path":                 {"GET", "/repos/o/r/planwarden", ``, "no path"},
		"comment body is required":     {"POST", "/repos/o/r/issues/3/comments", `{}`, `"body"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			probs := sp.validate(tc.method, tc.path, []byte(tc.body))
			got := strings.Join(probs, "; ")
			if tc.want == "" && got != "" {
				t.Errorf("problems %q, want none", got)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("problems %q, want one containing %q", got, tc.want)
			}
		})
	}
}
