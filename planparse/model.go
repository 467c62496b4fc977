// Package planparse turns `terraform show -json` (and `tofu show -json`)
// output into planwarden's own typed change model.
//
// Values leave this package sanitized: anything the plan marks sensitive
// (before_sensitive, after_sensitive, sensitive outputs) and any attribute
// whose name says it holds a secret reads as SensitiveText, and anything
// known only after apply reads as UnknownText. The package performs no I/O
// beyond what the caller hands it and logs nothing.
package planparse

// Action is what Terraform will do to one resource instance.
type Action string

// The actions a change can have. Replace covers both orders; see ReplaceOrder.
const (
	ActionCreate  Action = "create"
	ActionUpdate  Action = "update"
	ActionDelete  Action = "delete"
	ActionReplace Action = "replace"
	ActionRead    Action = "read"
	ActionNoop    Action = "no-op"
	ActionForget  Action = "forget"
)

// ReplaceOrder says in which order a replace happens.
type ReplaceOrder string

// Replace orders.
const (
	// DeleteThenCreate is Terraform's default: there is a gap with no object.
	DeleteThenCreate ReplaceOrder = "delete-then-create"
	// CreateThenDelete is create_before_destroy: both objects exist (and bill) for a while.
	CreateThenDelete ReplaceOrder = "create-then-delete"
)

// Mode says whether a change is to a managed resource or a data source.
type Mode string

// Modes.
const (
	ModeManaged Mode = "managed"
	ModeData    Mode = "data"
)

// Plan is one parsed plan file.
type Plan struct {
	// File is the name the caller gave (a path, or "-" for stdin).
	File             string
	FormatVersion    string
	TerraformVersion string
	// Timestamp is the plan's own RFC 3339 time, when the plan has one.
	Timestamp string
	// Errored is true when planning failed part way: the change list is
	// incomplete and must never be read as clean.
	Errored bool
	// Complete is false when some changes were deferred or -target was used.
	// Nil when the plan predates the field (Terraform < 1.8).
	Complete *bool
	// Applyable is nil when the plan predates the field.
	Applyable *bool

	// Changes are the resource_changes, in the plan's order.
	Changes []*Change
	// Drift are the resource_drift entries: changes made outside Terraform.
	Drift []*Change
	// Outputs are the output_changes, sorted by name.
	Outputs []*OutputChange
	// Deferred are the deferred_changes.
	Deferred []*DeferredChange
	// Checks are the results of check blocks, conditions and validations.
	Checks []*Check
	// Actions are the action_invocations: provider actions the apply will
	// run (Terraform 1.14+), in the plan's order.
	Actions []*ActionInvocation
	// DeferredActions are the deferred_action_invocations.
	DeferredActions []*DeferredActionInvocation
	// Tool is "" for a Terraform/OpenTofu plan and ToolWhatIf for an ARM
	// what-if result (Bicep, ARM templates).
	Tool string
	// Skipped are what-if entries ARM did not evaluate (Ignore,
	// Unsupported), with its reason; always empty for Terraform plans.
	Skipped []*SkippedChange

	lazy   *lazyPlan
	sparse []Range // SparseRanges
}

// Change is one resource instance change.
type Change struct {
	Address         string
	PreviousAddress string // set when the resource moved
	ModuleAddress   string
	Mode            Mode
	Type            string
	Name            string
	// Index is the count index or for_each key as it appears in the
	// address (`0`, `"gpu"`), or empty.
	Index    string
	Provider string
	// Deposed is the deposed object key, when the change is to a deposed object.
	Deposed string

	Action Action
	// ReplaceOrder is set when Action is ActionReplace.
	ReplaceOrder ReplaceOrder
	// Reason is action_reason in words a reviewer understands, or empty.
	Reason string
	// ReasonCode is the raw action_reason keyword ("" for none or unknown).
	ReasonCode string
	// ReplacePaths are the attribute paths forcing a replace, as
	// `default_node_pool[0].vm_size`.
	ReplacePaths []string
	// Importing is set when the change imports an existing object.
	Importing *Import

	before, after Value
	whatIf        *whatIfDiff // set for a what-if change: its diff comes from ARM's delta
	// lb and la hold before's and after's nodes when they are objects:
	// a change is one record, not three.
	lb, la lazy
}

// Import describes an import that is part of a change.
type Import struct {
	ID string
	// GeneratedConfig is true when Terraform wrote the configuration for it.
	GeneratedConfig bool
}

// OutputChange is a change to a root module output.
type OutputChange struct {
	Name      string
	Action    Action
	Sensitive bool
	Before    Value
	After     Value
}

// DeferredChange is a change Terraform postponed to a later plan.
type DeferredChange struct {
	Reason string // deferred reason in words
	Change *Change
}

// Check is the status of one checkable object (check block, precondition,
// postcondition, variable validation).
type Check struct {
	Address  string
	Kind     string
	Status   string // pass, fail, error, unknown
	Problems []string
}

// AttrDiff is one attribute-level difference of a change, with sanitized values.
type AttrDiff struct {
	// Path is the attribute path, as `default_node_pool[0].vm_size` or `tags["team"]`.
	Path   string
	Before Value
	After  Value
	// Unknown is true when the new value is known only after apply.
	Unknown bool
	// Sensitive is true when either side is redacted.
	Sensitive bool
	// ForcesReplacement is true when the path is (under) one of the change's ReplacePaths.
	ForcesReplacement bool
}
