package comment

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MarkerVersion is the version of the hidden marker this package writes.
const MarkerVersion = 1

// Marker is the hidden marker on the first line of planwarden's comment:
//
//	<!-- planwarden:comment v=1 sha=<head sha> plan_time=<RFC 3339> -->
//
// HeadSHA is lower-case hex (empty when not known) and PlanTime is UTC
// (zero when not known).
type Marker struct {
	Version  int
	HeadSHA  string
	PlanTime time.Time
}

// markerRE and hexRE are compiled on first use: the counted repetitions
// made thousands of allocations at every start of the binary.
var markerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<!-- planwarden:comment v=([0-9]{1,4}) sha=([0-9a-f]{0,64}) plan_time=([0-9TZ:.+-]{0,40}) -->$`)
})

var hexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{4,64}$`) })

// String returns the marker line, without a newline.
func (m Marker) String() string { return m.line() }

// line returns the marker line (without a newline).
func (m Marker) line() string {
	t := ""
	if !m.PlanTime.IsZero() {
		t = m.PlanTime.UTC().Format(time.RFC3339Nano)
	}
	sha := strings.ToLower(m.HeadSHA)
	if !hexRE().MatchString(sha) {
		sha = ""
	}
	return "<!-- planwarden:comment v=" + strconv.Itoa(m.Version) + " sha=" + sha + " plan_time=" + t + " -->"
}

// ParseMarker reads planwarden's marker from a comment body. Only the
// body's first line counts: that line is the bot's own, and nothing from a
// plan can reach it (plan text is escaped and never starts a line, and a
// "<!--" anywhere else is ignored). A body that merely contains a marker
// further down, quoted or pasted, is not planwarden's.
//
// ParseMarker cannot tell who wrote the body: anyone can post a comment
// that starts with the marker. Callers must also check that the comment's
// author is the App's own bot account before editing it.
func ParseMarker(body string) (Marker, bool) {
	first, _, _ := strings.Cut(body, "\n")
	first = strings.TrimSuffix(first, "\r")
	m := markerRE().FindStringSubmatch(first)
	if m == nil {
		return Marker{}, false
	}
	v, err := strconv.Atoi(m[1])
	if err != nil || v < 1 {
		return Marker{}, false
	}
	out := Marker{Version: v, HeadSHA: m[2]}
	if m[3] != "" {
		t, err := time.Parse(time.RFC3339Nano, m[3])
		if err != nil {
			return Marker{}, false
		}
		out.PlanTime = t.UTC()
	}
	return out, true
}

// Newer reports whether a comment for plan may replace the existing
// comment, so that runs finishing out of order never put an older plan over
// a newer one. It is true when plan's time is the same as or after
// existing's, or when existing has no plan time; it is false when plan is
// older, or when plan has no time but existing has (it cannot be shown to
// be newer). The head SHA is not compared: which SHA is current is the
// pull request's to say, and callers should drop plans for a SHA that is no
// longer the PR's head before they get here.
func Newer(existing, plan Marker) bool {
	if existing.PlanTime.IsZero() {
		return true
	}
	if plan.PlanTime.IsZero() {
		return false
	}
	return !plan.PlanTime.Before(existing.PlanTime)
}
