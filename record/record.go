// Package record holds the records that several parts of planwarden keep
// or show, defined once: a plan workflow run as GitHub described it
// (Run), one person's override of one blocking finding (Grant), a blocking
// finding a review left (Blocking), a check-run annotation (Annotation)
// and a slash-command thread with its reply (Thread). The pull request's
// stored state (app/port) holds them, package trust decides on them and
// package comment shows them, all in these types: nothing converts one
// into another. It imports only the standard library, so the receiver's
// side links nothing of the review.
package record

import "time"

// Run is a plan workflow run as GitHub described it: what package trust
// decides on, and what a pull request's state keeps of the runs its check
// concludes from.
type Run struct {
	ID      int64 `json:"id"`
	Attempt int   `json:"attempt,omitempty"`
	// Path is the workflow file, as GitHub names it: .github/workflows/x.yml.
	Path  string `json:"path"`
	Event string `json:"event,omitempty"`
	// HeadSHA is the commit the run checked out; HeadRepo the repository
	// (owner/name) that commit came from.
	HeadSHA    string `json:"head_sha,omitempty"`
	HeadRepo   string `json:"head_repo,omitempty"`
	Conclusion string `json:"conclusion,omitempty"`
	// Dispatched says planwarden dispatched the run itself
	// (trust.DispatchedRun): with plan_source: dispatch only such runs
	// count.
	Dispatched bool `json:"dispatched,omitempty"`
}

// Grant is one person's /override of one blocking finding, as recorded
// when they gave it.
type Grant struct {
	Rule    string `json:"rule"`
	Project string `json:"project,omitempty"`
	Address string `json:"address,omitempty"`
	// Environment is the finding's environment when the grant was given.
	Environment string `json:"environment"`
	// Digest is rules.FindingDigest of the finding it was given for.
	Digest  string    `json:"digest"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason"`
	HeadSHA string    `json:"head_sha,omitempty"`
}

// Blocking is a blocking finding of a review that may be overridden, with
// its project's environment: what /override may cover. Rule, Project,
// Address, Message and BlobSHAs are the finding's, the fields its digest
// is made of.
type Blocking struct {
	Rule    string `json:"rule"`
	Project string `json:"project,omitempty"`
	Address string `json:"address"`
	Message string `json:"message"`
	// BlobSHAs are the head blob SHAs of the files a finding about them
	// was read from (plan-workflow-changed, plan-runs-pr-code): part of
	// its digest, so a grant covers the content it was given for.
	BlobSHAs    []string `json:"blob_shas,omitempty"`
	Environment string   `json:"environment"`
}

// Annotation is a check-run annotation: a message on lines of a file.
type Annotation struct {
	Path      string
	StartLine int
	EndLine   int
	Level     string // notice, warning, failure
	Title     string
	Message   string
}

// After reports whether r is a newer run than o: a larger run id, or the
// same run's later attempt. GitHub numbers both; a plan's own timestamp
// decides nothing.
func (r Run) After(o Run) bool {
	return r.ID > o.ID || r.ID == o.ID && r.Attempt > o.Attempt
}

// LabelMark says who put a label on a pull request, and when (GitHub's
// issue events): the record an override label counts by.
type LabelMark struct {
	Name string `json:"name"`
	By   string `json:"by,omitempty"`
	// ByType is GitHub's type of By's account (User, Bot).
	ByType string    `json:"by_type,omitempty"`
	At     time.Time `json:"at"`
}
