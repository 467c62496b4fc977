// Package rules turns planwarden's change model into findings and a
// verdict: the built-in GPU/ML guardrails, repo configuration
// (.github/planwarden.yml) and custom CEL rules.
package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// Severity of a finding.
type Severity string

// Severities, most serious first.
const (
	SeverityBlock Severity = "block"
	SeverityWarn  Severity = "warn"
	SeverityInfo  Severity = "info"
)

// Verdict of a whole review.
type Verdict string

// Verdicts.
const (
	VerdictPass Verdict = "pass"
	VerdictWarn Verdict = "warn"
	VerdictFail Verdict = "fail"
)

// Finding is one thing a rule says about one address.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Address  string   `json:"address"`
	Message  string   `json:"message"`
	// Project names the project of the plan the finding is about.
	Project string `json:"project,omitempty"`
	// Remedy says what to do: how to fix it, or who may override it and how.
	Remedy string `json:"remedy,omitempty"`
	// Override is set when an authorized person overrode a blocking finding.
	Override *Override `json:"override,omitempty"`
	// BlobSHAs are the git blob SHAs, at the pull request's head, of the
	// files a provenance finding is about (plan-workflow-changed,
	// plan-runs-pr-code), in file order: they are part of its digest, so
	// an override given after reading one content does not cover another.
	BlobSHAs []string `json:"blob_shas,omitempty"`
}

// Override is an authorized decision to let a blocking finding pass.
type Override struct {
	Rule    string    `json:"rule"`
	Address string    `json:"address,omitempty"` // empty: every address of the rule
	Project string    `json:"project,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason,omitempty"`
	// Digest, when set, limits the override to the one finding whose
	// FindingDigest it is: a finding that changes is no longer covered.
	Digest string `json:"digest,omitempty"`
}

// FindingDigest identifies what a finding says: its rule, project,
// address and message, and the blob SHAs of the content it is about,
// hashed. An override given for one finding names its digest, so it
// lapses when a push changes the finding or the content it approved. A
// finding without blob SHAs has the digest it had before they existed.
func FindingDigest(f Finding) string {
	h := sha256.New()
	for _, s := range []string{f.Rule, f.Project, f.Address, f.Message} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if len(f.BlobSHAs) > 0 {
		h.Write([]byte("blobs\x00"))
		for _, s := range f.BlobSHAs {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Project is what the rules see of one plan.
type Project struct {
	Name        string
	Environment string
	Plan        *planparse.Plan
	Resources   []*infra.Resource
	// Sum is infra.Sum(Resources) when the caller has made it (review.Build
	// does, for the report); nil: Evaluate makes it.
	Sum *infra.PlanCost
}
