package comment

import (
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
	"github.com/planwarden/planwarden/rules"
)

var t0 = time.Date(2026, 12, 1, 17, 42, 10, 0, time.UTC)

func TestMarkerRoundTrip(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		opt  Options
		want Marker
	}{
		"sha and time": {Options{Marker: true, HeadSHA: "3F2C1E9A8B7D6C5E4F3A2B1C0D9E8F7A6B5C4D3E", PlanTime: t0.Add(123 * time.Millisecond)},
			Marker{Version: MarkerVersion, HeadSHA: "3f2c1e9a8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e", PlanTime: t0.Add(123 * time.Millisecond)}},
		"time in another zone": {Options{Marker: true, HeadSHA: "abcdef1", PlanTime: t0.In(time.FixedZone("x", 3600))},
			Marker{Version: MarkerVersion, HeadSHA: "abcdef1", PlanTime: t0}},
		"hostile sha is left out": {Options{Marker: true, HeadSHA: "abc --> <b>x</b>", PlanTime: t0},
			Marker{Version: MarkerVersion, PlanTime: t0}},
		"no time, no plan timestamps": {Options{Marker: true, HeadSHA: "abcdef1"},
			Marker{Version: MarkerVersion, HeadSHA: "abcdef1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			body := Render(&review.Report{Verdict: rules.VerdictPass}, tc.opt)
			got, ok := ParseMarker(body)
			if !ok || got != tc.want {
				t.Errorf("ParseMarker = %+v, %v; want %+v\nbody:\n%s", got, ok, tc.want, body)
			}
		})
	}
}

func TestMarkerPlanTimeFromReport(t *testing.T) {
	t.Parallel()
	r := &review.Report{Projects: []*review.Project{
		{Name: "a", Timestamp: "2026-12-01T10:00:00Z"},
		{Name: "b", Timestamp: "2026-12-01T12:00:00Z"},
		{Name: "c", Timestamp: "not a time"},
	}}
	m, ok := ParseMarker(Render(r, Options{Marker: true}))
	if !ok || !m.PlanTime.Equal(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("marker = %+v, %v; want the latest plan timestamp", m, ok)
	}
}

func TestParseMarkerRefuses(t *testing.T) {
	t.Parallel()
	good := Marker{Version: 1, HeadSHA: "abcdef1", PlanTime: t0}.line()
	tests := map[string]string{
		"no marker":           "## planwarden\n",
		"marker on line two":  "hello\n" + good + "\n",
		"leading space":       " " + good + "\n",
		"quoted":              "> " + good + "\n",
		"in code":             "`" + good + "`\n",
		"trailing text":       good + " x\n",
		"other tool":          "<!-- tfcmt v=1 sha=abcdef1 plan_time= -->\n",
		"bad time":            strings.Replace(good, "2026-12-01T17:42:10Z", "2026-13-01T17:42:10Z", 1) + "\n",
		"version zero":        strings.Replace(good, "v=1", "v=0", 1) + "\n",
		"upper-case sha":      strings.Replace(good, "abcdef1", "ABCDEF1", 1) + "\n",
		"injected attributes": "<!-- planwarden:comment v=1 sha=abcdef1 plan_time=2026-12-01T17:42:10Z --> <!-- x -->\n",
		"empty":               "",
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			if m, ok := ParseMarker(body); ok {
				t.Errorf("ParseMarker(%q) = %+v, want no marker", body, m)
			}
		})
	}
	if _, ok := ParseMarker(good + "\r\nrest"); !ok {
		t.Errorf("a CRLF body lost its marker")
	}
}

// TestMarkerNotForgeable: plan text that spells a newer marker stays
// escaped and never reaches the first line.
func TestMarkerNotForgeable(t *testing.T) {
	t.Parallel()
	forged := "\n<!-- planwarden:comment v=1 sha=ffffffff plan_time=2099-01-01T00:00:00Z -->\n"
	r := &review.Report{Verdict: rules.VerdictFail, Projects: []*review.Project{{
		Name: forged, Environment: forged,
		Findings: []rules.Finding{{Rule: forged, Severity: rules.SeverityBlock, Address: forged, Message: forged, Remedy: forged}},
		Changes:  []*review.Change{reviewtest.Change(review.ChangeRow{Address: forged, Type: forged, Action: "update", Reason: forged})},
	}}}
	body := Render(r, Options{Marker: true, HeadSHA: "abcdef1", PlanTime: t0})
	m, ok := ParseMarker(body)
	if !ok || m.HeadSHA != "abcdef1" || !m.PlanTime.Equal(t0) {
		t.Errorf("marker = %+v, %v", m, ok)
	}
	for i, l := range strings.Split(body, "\n") {
		if i > 0 && strings.HasPrefix(l, "<!--") {
			t.Errorf("line %d starts an HTML comment: %q", i+1, l)
		}
	}
	noMarker := Render(r, Options{})
	if _, ok := ParseMarker(noMarker); ok {
		t.Errorf("a body without the marker parsed as planwarden's")
	}
}

func TestNewer(t *testing.T) {
	t.Parallel()
	at := func(d time.Duration) Marker { return Marker{Version: 1, HeadSHA: "abcdef1", PlanTime: t0.Add(d)} }
	tests := map[string]struct {
		existing, plan Marker
		want           bool
	}{
		"newer plan":                  {at(0), at(time.Minute), true},
		"same plan again":             {at(0), at(0), true},
		"older plan":                  {at(time.Minute), at(0), false},
		"older plan of another sha":   {at(time.Minute), Marker{Version: 1, HeadSHA: "1234567", PlanTime: t0}, false},
		"existing has no time":        {Marker{Version: 1}, at(0), true},
		"plan has no time":            {at(0), Marker{Version: 1}, false},
		"neither has a time":          {Marker{Version: 1}, Marker{Version: 1}, true},
		"newer by a nanosecond":       {at(0), at(1), true},
		"older by a nanosecond":       {at(1), at(0), false},
		"newer marker version, older": {Marker{Version: 2, PlanTime: t0.Add(time.Hour)}, at(0), false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Newer(tc.existing, tc.plan); got != tc.want {
				t.Errorf("Newer(%+v, %+v) = %v, want %v", tc.existing, tc.plan, got, tc.want)
			}
		})
	}
}
