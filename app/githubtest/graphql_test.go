package githubtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The fake's minimizeComment: a request shaped as GitHub's schema wants
// minimizes the comment; misspelt fields, a wrong enum value or a missing
// subjectId are reported to the test, as GitHub would refuse them.
func TestGraphQLMinimizeComment(t *testing.T) {
	t.Parallel()
	const mutation = `mutation($id: ID!, $classifier: ReportedContentClassifiers!) {
  minimizeComment(input: {subjectId: $id, classifier: $classifier}) { minimizedComment { isMinimized } }
}`
	tests := map[string]struct {
		query     string
		vars      map[string]any
		minimized bool
		reported  string
	}{
		"as GitHub wants it": {mutation, map[string]any{"id": "NODE", "classifier": "OUTDATED"}, true, ""},
		"misspelt field":     {strings.Replace(mutation, "isMinimized", "minimized", 1), map[string]any{"id": "NODE", "classifier": "OUTDATED"}, false, "does not match GitHub's schema"},
		"unknown classifier": {mutation, map[string]any{"id": "NODE", "classifier": "STALE"}, false, "variables do not match"},
		"no subject":         {mutation, map[string]any{"classifier": "OUTDATED"}, false, "variables do not match"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tb := &errorsTB{TB: t}
			s := New(tb)
			s.AddPR(PR{Owner: "o", Repo: "r", Number: 1})
			id := s.AddComment("o", "r", 1, BotLogin, "old reply")
			node := s.Comments("o", "r", 1)[0].NodeID
			if tc.vars["id"] == "NODE" {
				tc.vars["id"] = node
			}
			body, _ := json.Marshal(map[string]any{"query": tc.query, "variables": tc.vars})
			req, _ := http.NewRequest("POST", s.URL+GraphQLPath, strings.NewReader(string(body)))
			req.Header.Set("Authorization", "bearer ghs_test")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			c := s.Comments("o", "r", 1)[0]
			if c.ID != id || c.Minimized != tc.minimized || tc.minimized && c.MinimizedReason != "OUTDATED" {
				t.Errorf("comment %+v, want minimized %v (OUTDATED)", c, tc.minimized)
			}
			switch {
			case tc.reported == "" && len(tb.errs) > 0:
				t.Errorf("a valid request was reported: %q", tb.errs)
			case tc.reported != "" && (len(tb.errs) != 1 || !strings.Contains(tb.errs[0], tc.reported)):
				t.Errorf("reported %q, want one problem saying %q", tb.errs, tc.reported)
			}
		})
	}
}
