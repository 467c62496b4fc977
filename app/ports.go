// Package app is planwarden's GitHub side: the webhook handler, one file
// per event, the worker pipeline, and the ports (GitHub, queue, store)
// with their adapters.
package app

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Job is the small, serializable unit of work the webhook handler hands to
// a worker. It carries references (ids, SHAs), never plans, so it fits an
// SQS message (256 KB).
type Job struct {
	DeliveryID     string    `json:"delivery_id"`
	Event          string    `json:"event"`
	Action         string    `json:"action,omitempty"`
	InstallationID int64     `json:"installation_id"`
	Owner          string    `json:"owner"`
	Repo           string    `json:"repo"`
	PR             int       `json:"pr,omitempty"`
	HeadSHA        string    `json:"head_sha,omitempty"`
	ReceivedAt     time.Time `json:"received_at"`
	// Event-specific references, set by the event's file in this package.
	RunID         int64  `json:"run_id,omitempty"`
	RunConclusion string `json:"run_conclusion,omitempty"`
	CheckRunID    int64  `json:"check_run_id,omitempty"`
	CommentID     int64  `json:"comment_id,omitempty"`
	CommentBody   string `json:"comment_body,omitempty"`
	Sender        string `json:"sender,omitempty"`
	BaseRef       string `json:"base_ref,omitempty"`
	HeadRef       string `json:"head_ref,omitempty"`
	// Extra holds small event-specific values (requested_action identifier,
	// merge group ref, ...).
	Extra map[string]string `json:"extra,omitempty"`
}

// GroupKey serializes work for one pull request: owner/repo#PR, or
// owner/repo@SHA when the PR is not known yet.
func (j Job) GroupKey() string {
	if j.PR > 0 {
		return j.Owner + "/" + j.Repo + "#" + strconv.Itoa(j.PR)
	}
	return j.Owner + "/" + j.Repo + "@" + j.HeadSHA
}

// Queue takes jobs from the webhook handler. Enqueue must return quickly;
// the job is done later by a Worker. Implementations: the in-process queue
// of `planwarden serve`, and SQS FIFO (app/aws) in Lambda.
type Queue interface {
	Enqueue(ctx context.Context, job Job) error
}

// PRState is what the bot remembers about one pull request between deliveries.
type PRState struct {
	CommentID int64  `json:"comment_id,omitempty"`
	HeadSHA   string `json:"head_sha,omitempty"`
	// PlanTime is the newest plan timestamp reviewed for HeadSHA; an older
	// plan must not overwrite a newer one.
	PlanTime   time.Time `json:"plan_time,omitempty"`
	Conclusion string    `json:"conclusion,omitempty"` // success, neutral, failure
	Title      string    `json:"title,omitempty"`
	Summary    string    `json:"summary,omitempty"`
	RunID      int64     `json:"run_id,omitempty"`
	UpdatedAt  time.Time `json:"updated_at"`
	// CheckRunID is the `planwarden` check run on HeadSHA, when known.
	CheckRunID int64 `json:"check_run_id,omitempty"`
	// Overrides are the /override commands given on the PR. They stay
	// across pushes (each names the head it was given on).
	Overrides []Override `json:"overrides,omitempty"`
	// Labels are the override labels put on the PR while the App watched:
	// who added each and when, for the comment.
	Labels []LabelMark `json:"labels,omitempty"`
	// Version is the stored state's version when it was read (0: there
	// was none). Store.PutPR writes only over that version, so two jobs
	// that read the same state cannot both write it.
	Version int64 `json:"version,omitempty"`
}

// ErrConflict is what Store.PutPR returns (wrapped) when the stored state
// is no longer the version the writer read: another job wrote it in
// between. The writer re-reads and re-applies its change.
var ErrConflict = errors.New("pr state changed since it was read")

// Store is the bot's small durable memory. Implementations: SQLite
// (app/sqlite, `planwarden serve`), DynamoDB (app/aws, Lambda) and memory
// (tests). All pass one shared port test suite (app/porttest).
type Store interface {
	// MarkDelivery records a delivery id and reports whether it was new.
	// A repeated id within ttl reports false.
	MarkDelivery(ctx context.Context, deliveryID string, ttl time.Duration) (bool, error)
	// PR returns the state of one PR (key is Job.GroupKey()), and whether
	// there was one. The state's Version is the stored version.
	PR(ctx context.Context, key string) (PRState, bool, error)
	// PutPR stores the state of one PR, kept for ttl, if the stored
	// version is still st.Version (0: no state, or expired state); the
	// stored version becomes st.Version+1. Otherwise it writes nothing and
	// returns an error wrapping ErrConflict.
	PutPR(ctx context.Context, key string, st PRState, ttl time.Duration) error
}

// Secrets are the App's credentials, loaded once at start.
type Secrets struct {
	AppID         int64
	PrivateKeyPEM []byte
	WebhookSecret []byte
}

// String never prints the secrets themselves.
func (s Secrets) String() string { return "app secrets (redacted)" }
