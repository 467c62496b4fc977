package trust

import "testing"

// One pull request's staleness never touches another's verdict: a commit
// heading several open pull requests gets the strictest of their current
// results.
func TestStrictest(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		results []PRResult
		want    int // the deciding pull request; 0: none
	}{
		"a stale neutral review cannot loosen another's failure": {
			[]PRResult{{Number: 7, Conclusion: "neutral"}, {Number: 9, Conclusion: "failure"}}, 9},
		"twin: both pass, the lowest number speaks": {
			[]PRResult{{Number: 9, Conclusion: "success"}, {Number: 7, Conclusion: "success"}}, 7},
		"waiting is stricter than neutral": {
			[]PRResult{{Number: 3, Conclusion: "neutral"}, {Number: 4, Conclusion: ""}}, 4},
		"neutral is stricter than success": {
			[]PRResult{{Number: 3, Conclusion: "success"}, {Number: 4, Conclusion: "neutral"}}, 4},
		"an unknown conclusion counts as a failure": {
			[]PRResult{{Number: 3, Conclusion: ""}, {Number: 4, Conclusion: "exploded"}}, 4},
		"action_required is a failure": {
			[]PRResult{{Number: 3, Conclusion: "success"}, {Number: 5, Conclusion: "action_required"}}, 5},
		"skipped passes like success": {
			[]PRResult{{Number: 3, Conclusion: "skipped"}, {Number: 2, Conclusion: "success"}}, 2},
		"a single pull request": {[]PRResult{{Number: 1, Conclusion: "failure"}}, 1},
		"no open pull request":  {nil, 0},
	}
	for name, tc := range tests {
		got, ok := Strictest(tc.results)
		if ok != (tc.want != 0) || got.Number != tc.want {
			t.Errorf("%s: Strictest = #%d (%v), want #%d", name, got.Number, ok, tc.want)
		}
	}
}
