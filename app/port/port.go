// Package port holds the ports of planwarden's GitHub side, sized by use,
// and the values that cross them: GitHub (github.go), the queue between
// receiver and worker, and the store. The receiver, the worker and every
// adapter import it; it imports only the standard library and app/job, so
// the receiver binary carries no review pipeline.
package port

import (
	"context"
	"errors"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/record"
)

// Queue takes jobs from the receiver. Enqueue must return quickly; the
// job is done later by the worker. Implementations: the in-process queue
// of `planwarden serve` (app), and SQS FIFO (app/aws) in Lambda.
type Queue interface {
	Enqueue(ctx context.Context, j job.Job) error
}

// PRState is what the bot remembers about one pull request between deliveries.
type PRState struct {
	CommentID int64  `json:"comment_id,omitempty"`
	HeadSHA   string `json:"head_sha,omitempty"`
	// PlanTime is the newest plan timestamp reviewed for HeadSHA; an older
	// plan must not overwrite a newer one.
	PlanTime   time.Time `json:"plan_time,omitempty"`
	Conclusion string    `json:"conclusion,omitempty"` // success, neutral, failure
	// BaseRef is the base branch the check of HeadSHA was decided under:
	// a pull request retargeted since is decided again (a lost delivery
	// costs minutes, not the gate: the reconciler).
	BaseRef string `json:"base_ref,omitempty"`
	// ConfigSHA is the git blob SHA of the base branch's config the check
	// was decided under ("" for none): a config changed since is noticed
	// by the reconciler.
	ConfigSHA string    `json:"config_sha,omitempty"`
	Title     string    `json:"title,omitempty"`
	Summary   string    `json:"summary,omitempty"`
	RunID     int64     `json:"run_id,omitempty"`
	UpdatedAt time.Time `json:"updated_at"`
	// CheckRunID is the `planwarden` check run on HeadSHA, when known.
	CheckRunID int64 `json:"check_run_id,omitempty"`
	// Runs are the trusted runs on HeadSHA the check concludes from: the
	// newest run of each plan workflow, and every run that holds the
	// newest plan of a project (by run id, then attempt).
	Runs []record.Run `json:"runs,omitempty"`
	// Blocking are the overridable blocking findings of the last review
	// of HeadSHA, with their environments: what /override may cover.
	Blocking []record.Blocking `json:"blocking,omitempty"`
	// Grants are the /override commands given on the PR, one per finding
	// they cover. Every review checks them again against the base
	// branch's config (package trust).
	Grants []record.Grant `json:"grants,omitempty"`
	// Threads are the slash-command threads of the PR (the newest
	// twenty, newest last), each with its one reply.
	Threads []record.Thread `json:"threads,omitempty"`
	// Modules are the repository directories of the local modules each
	// project's root module calls, by project, as its trusted plans showed
	// them (trust.ModuleDirs); kept across heads, so a push changing only
	// a called module needs that project's plan.
	Modules map[string][]string `json:"modules,omitempty"`
	// Projects are the projects of the newest review of HeadSHA.
	Projects []ProjectStatus `json:"projects,omitempty"`
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
	// PR returns the state of one PR (key is job.Job.GroupKey()), and
	// whether there was one. The state's Version is the stored version.
	PR(ctx context.Context, key string) (PRState, bool, error)
	// PutPR stores the state of one PR, kept for ttl, if the stored
	// version is still st.Version (0: no state, or expired state); the
	// stored version becomes st.Version+1. Otherwise it writes nothing and
	// returns an error wrapping ErrConflict.
	PutPR(ctx context.Context, key string, st PRState, ttl time.Duration) error
}

// DeliveryForgetter is an optional Store method: undo MarkDelivery when the
// job could not be queued, so that a redelivery of it is new again.
type DeliveryForgetter interface {
	ForgetDelivery(ctx context.Context, deliveryID string) error
}

// Secrets are the App's credentials, loaded once at start.
type Secrets struct {
	AppID         int64
	PrivateKeyPEM []byte
	WebhookSecret []byte
}

// String never prints the secrets themselves.
func (s Secrets) String() string { return "app secrets (redacted)" }

// DeliveryQueue is an optional Queue method for a queue that keeps the
// delivery marks itself (serve's SQLite): record the keys (the delivery id
// and the body's digest) and queue the job in one step, so that a delivery
// is never marked seen without its job. seen is the first key already
// recorded within its ttl (then nothing is recorded or queued), or "".
type DeliveryQueue interface {
	EnqueueDelivery(ctx context.Context, j job.Job, keys []string, ttl time.Duration) (seen string, err error)
}

// DeliveryChecker is an optional Store method: whether a delivery key is
// recorded (and unexpired), without recording it. With it the receiver
// marks a delivery only after its job was sent (DynamoDB and SQS).
type DeliveryChecker interface {
	DeliverySeen(ctx context.Context, key string) (bool, error)
}
