// Package comment renders a review.Report as the PR comment (markdown) and
// as the check run's output, within GitHub's size limits.
package comment

import (
	"time"

	"github.com/planwarden/planwarden/review"
)

// Options say what the rendered comment is for.
type Options struct {
	// HeadSHA and PlanTime go into the hidden marker, so the bot can find
	// its comment and refuse to overwrite a newer plan with an older one.
	HeadSHA  string
	PlanTime time.Time
	// Marker adds the hidden marker (the bot); the CLI leaves it out.
	Marker bool
	// DetailsURL is where the full output lives (the check run), for the
	// "left out" line when the comment is shrunk.
	DetailsURL string
}

// Render returns the PR comment markdown. (Placeholder until the comment issue lands.)
func Render(r *review.Report, opt Options) string { return "" }

// Marker is the hidden marker parsed back from a comment body.
type Marker struct {
	Version  int
	HeadSHA  string
	PlanTime time.Time
}

// ParseMarker finds planwarden's marker in a comment body.
func ParseMarker(body string) (Marker, bool) { return Marker{}, false }

// Check is the check run's output.
type Check struct {
	Conclusion  string // success, neutral, failure
	Title       string
	Summary     string
	Text        string
	Annotations []Annotation
}

// Annotation is a check-run annotation on a file and line.
type Annotation struct {
	Path      string
	StartLine int
	EndLine   int
	Level     string // notice, warning, failure
	Title     string
	Message   string
}

// CheckOutput returns the check run's output for the report.
func CheckOutput(r *review.Report, opt Options) Check { return Check{} }
