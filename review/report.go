// Package review runs the pure pipeline: parsed plans -> infra's view ->
// rules -> one Report, the value that drives the JSON output, the PR
// comment and the check run alike.
package review

import (
	"encoding/json"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// Report is the whole review of one PR (or one `planwarden review` run).
// Its JSON form is the contract of docs/architecture.md: fields may be added,
// never renamed.
type Report struct {
	// SchemaVersion is the version of this shape (SchemaVersion); the JSON
	// Schema is review/report.schema.json.
	SchemaVersion int           `json:"schema_version"`
	Verdict       rules.Verdict `json:"verdict"`
	Totals        Totals        `json:"totals"`
	Projects      []*Project    `json:"projects"`
	// Overrides that were applied, with who and when.
	Overrides []rules.Override `json:"overrides"`
	// Notes say how the review was made: what of the plan artifacts was
	// not trusted and why.
	Notes []string `json:"notes"`
	// CostCenters roll GPUs and hourly cost up by cost center (the value
	// of the first of CostCenterTags a resource carries; "(untagged)" for
	// none) across every project; their figures add up to Totals'.
	CostCenters    []CostCenter `json:"cost_centers"`
	CostCenterTags []string     `json:"cost_center_tags"`
	// Viewer shows the plans' values by the allow-list (docs/secrets.md);
	// the comment renders its diffs with it, so digests agree with the
	// JSON report's. Not part of the JSON.
	Viewer *planparse.Viewer `json:"-"`
}

// CostCenter is one row of the roll-up by cost center.
type CostCenter struct {
	Value string `json:"value"`
	// GPUsBefore and GPUsAfter count accelerators by model at the
	// expected scale (count) and the maximum (at_most).
	GPUsBefore      []GPUCount `json:"gpus_before"`
	GPUsAfter       []GPUCount `json:"gpus_after"`
	HourlyBefore    float64    `json:"hourly_before"`
	HourlyAfter     float64    `json:"hourly_after"`
	HourlyDelta     float64    `json:"hourly_delta"`
	MaxHourlyBefore float64    `json:"max_hourly_before"`
	MaxHourlyAfter  float64    `json:"max_hourly_after"`
	// Resources is how many resources the row covers; UnpricedResources
	// how many of them its figures leave out.
	Resources         int `json:"resources"`
	UnpricedResources int `json:"unpriced_resources"`
	// GPUsUnknownResources is how many of them have GPUs that are not
	// known (an unknown SKU, a count known only after apply), left out of
	// the GPU figures.
	GPUsUnknownResources int `json:"gpus_unknown_resources"`
	// MonthlyBudget is the config's budget of the cost center, if any.
	MonthlyBudget *rules.BudgetThresholds `json:"monthly_budget,omitempty"`
}

// GPUCount is a number of accelerators of one model.
type GPUCount struct {
	Model  string  `json:"model"`
	Count  float64 `json:"count"`
	AtMost float64 `json:"at_most"`
}

// Totals are summed over projects. A figure is null when any part of it is
// unknown in a way that would make the sum misleading; see each project's
// cost.unpriced.
type Totals struct {
	HourlyBefore   *float64 `json:"hourly_before"`
	HourlyAfter    *float64 `json:"hourly_after"`
	HourlyDelta    *float64 `json:"hourly_delta"`
	MaxHourlyAfter *float64 `json:"max_hourly_after"`
	// UnpricedCount is how many items had no price.
	UnpricedCount int `json:"unpriced_count"`
	// MaxHourlyBefore and MaxHourlyDelta are the figures with every
	// autoscaled fleet at its maximum, before and after.
	MaxHourlyBefore *float64 `json:"max_hourly_before"`
	MaxHourlyDelta  *float64 `json:"max_hourly_delta"`
	// NotEstimatedCount is how many resources bill by the hour but are not
	// estimated (see Cost.NotEstimated).
	NotEstimatedCount int `json:"not_estimated_count"`
	// MinHourlyAfter is every autoscaled fleet at its minimum.
	MinHourlyAfter *float64 `json:"min_hourly_after"`
}

// Project is the review of one plan file.
type Project struct {
	Name             string          `json:"name"`
	Environment      string          `json:"environment"`
	PlanFile         string          `json:"plan_file"`
	TerraformVersion string          `json:"terraform_version"`
	FormatVersion    string          `json:"format_version"`
	Timestamp        string          `json:"timestamp,omitempty"`
	Errored          bool            `json:"errored"`
	Complete         bool            `json:"complete"`
	Summary          Summary         `json:"summary"`
	Changes          []*Change       `json:"changes"`
	Drift            []*Change       `json:"drift"`
	Deferred         []*Change       `json:"deferred"`
	Outputs          []*Output       `json:"outputs"`
	Checks           []*Check        `json:"checks"`
	Cost             Cost            `json:"cost"`
	Findings         []rules.Finding `json:"findings"`

	// Actions are the provider actions the apply will run (Terraform
	// 1.14+ action_invocations); DeferredActions wait for a later plan.
	Actions         []*Action `json:"actions"`
	DeferredActions []*Action `json:"deferred_actions"`
	// Tool is "terraform" for a Terraform/OpenTofu plan and "arm-what-if"
	// for an ARM what-if result (Bicep, ARM templates); Skipped lists the
	// what-if entries ARM did not evaluate.
	Tool    string     `json:"tool"`
	Skipped []*Skipped `json:"skipped"`
	// ChangeSetDigest is the keyed digest of the project's change set
	// (ChangeSet: every change's ID, in any order), under DigestScheme:
	// what `planwarden verify` compares with the plan about to be applied.
	ChangeSetDigest string `json:"change_set_digest,omitempty"`
	DigestScheme    string `json:"digest_scheme,omitempty"`
	// ids is the change set's IDs, sorted, as the digests were made of
	// them (ChangeSet gives copies).
	ids []ChangeID
	// ProviderUpgrades are the providers the pull request moves to
	// another version (base and head lock files), when they were given.
	ProviderUpgrades []ProviderUpgrade `json:"provider_upgrades,omitempty"`

	// Plan and Resources are the inputs, for renderers that need the
	// attribute diffs or the GPU facts; they are not part of the JSON.
	Plan      *planparse.Plan   `json:"-"`
	Resources []*infra.Resource `json:"-"`
}

// ProviderUpgrade is a provider whose locked version (or required_providers
// version constraint) the change moves.
type ProviderUpgrade struct {
	// Provider is the source address (registry.terraform.io/hashicorp/azurerm);
	// Name its last part (azurerm).
	Provider string `json:"provider"`
	Name     string `json:"name"`
	// Before and After are the locked versions, or the version
	// constraints ("" when the provider is added or removed).
	Before string `json:"before"`
	After  string `json:"after"`
	// From is the repository file the move was read from: a lock file
	// (infra/gpu/.terraform.lock.hcl) or a Terraform file whose
	// required_providers changed (infra/gpu/versions.tf); "" for a lock
	// file given by hand (the CLI's --lockfile). Not in the JSON report.
	From string `json:"-"`
}

// Summary counts changes per action. A moved or imported resource counts
// under move/import as well as under its action.
type Summary struct {
	Create  int `json:"create"`
	Update  int `json:"update"`
	Delete  int `json:"delete"`
	Replace int `json:"replace"`
	Move    int `json:"move"`
	Import  int `json:"import"`
	Read    int `json:"read"`
	Forget  int `json:"forget"`
	NoOp    int `json:"no_op"`
}

// Change is one resource change as reported. A row holds only what is its
// own (the deferral reason, the actions it triggers) and reads the rest
// from the parsed change and infra's view of it when asked, so a report of
// 20,000 changes keeps no second copy of them. Its JSON form is
// ChangeRow's.
type Change struct {
	// Source is the parsed change (required); Resource is infra's view
	// when the type is supported (nil otherwise). Neither is part of the
	// JSON.
	Source   *planparse.Change
	Resource *infra.Resource
	// DeferredReason says why a deferred change waits for a later plan.
	DeferredReason string
	// TriggersActions are the addresses of the actions this change's
	// lifecycle events run (Terraform 1.14+), in the plan's order.
	TriggersActions []string
	// ProviderUpgrades are the providers the project's lock file moves,
	// on a replacement only: the replacement can come from the upgrade
	// rather than from the code. The JSON row names them.
	ProviderUpgrades []ProviderUpgrade
	// digests are the attribute diff's keyed digests (digest.go), made by
	// Build.
	digests diffDigests
}

// ChangeRow is a change row as the JSON report writes it (the schema's
// shape, field by field).
type ChangeRow struct {
	Address         string   `json:"address"`
	Type            string   `json:"type"`
	Mode            string   `json:"mode"`
	Action          string   `json:"action"`
	ReplaceOrder    string   `json:"replace_order,omitempty"`
	PreviousAddress string   `json:"previous_address"`
	Importing       bool     `json:"importing"`
	ReplacePaths    []string `json:"replace_paths"`
	Reason          string   `json:"reason"`
	DeferredReason  string   `json:"deferred_reason,omitempty"`
	TriggersActions []string `json:"triggers_actions,omitempty"`
	SKUBefore       string   `json:"sku_before"`
	SKUAfter        string   `json:"sku_after"`
	HourlyBefore    *float64 `json:"hourly_before"`
	HourlyAfter     *float64 `json:"hourly_after"`
	// PriceBasis is "exact" when every figure is the list price of the
	// resource's own region, "approximate" when one stands in another
	// region's (an EC2 type priced only in us-east-1); PriceRegion names
	// the region(s) whose prices were used. Both are absent when nothing
	// was priced.
	PriceBasis  string `json:"price_basis,omitempty"`
	PriceRegion string `json:"price_region,omitempty"`
	// ListHourlyBefore and ListHourlyAfter are the list-price figures; the
	// hourly figures are your price when the config's pricing applies, and
	// PriceNote then says how ("your price", "28% discount").
	ListHourlyBefore *float64 `json:"list_hourly_before"`
	ListHourlyAfter  *float64 `json:"list_hourly_after"`
	PriceNote        string   `json:"price_note,omitempty"`
	// Capacity says how the instances are bought when not on demand:
	// "spot" (priced at your spot price, else unpriced with the on-demand
	// price as its ceiling), "capacity-reservation" (priced at on-demand,
	// billed whether used or not), "capacity-block" (paid up front).
	Capacity string `json:"capacity,omitempty"`
	// Deposed is the deposed object's key, for a change to one. CountBefore
	// and CountAfter are the instances of the resource's priced groups
	// (absent when unknown). DiffDigest is the keyed digest of the
	// sanitized attribute diff; KnownDiffDigest the same without the
	// UnknownPaths, whose values are known only after apply (digest.go;
	// `planwarden verify` compares them).
	Deposed         string   `json:"deposed,omitempty"`
	CountBefore     *int     `json:"count_before,omitempty"`
	CountAfter      *int     `json:"count_after,omitempty"`
	DiffDigest      string   `json:"diff_digest,omitempty"`
	KnownDiffDigest string   `json:"known_diff_digest,omitempty"`
	UnknownPaths    []string `json:"unknown_paths,omitempty"`
	// ProviderUpgrades name the providers the pull request moves, on a
	// replacement (see Change.ProviderUpgrades and the project's
	// provider_upgrades for the versions).
	ProviderUpgrades []string `json:"provider_upgrades,omitempty"`
}

// Row is the change's JSON row.
func (c *Change) Row() ChangeRow {
	return ChangeRow{
		Address: c.Address(), Type: c.Type(), Mode: c.Mode(), Action: c.Action(), ReplaceOrder: c.ReplaceOrder(),
		PreviousAddress: c.PreviousAddress(), Importing: c.Importing(), ReplacePaths: c.ReplacePaths(), Reason: c.Reason(),
		DeferredReason: c.DeferredReason, TriggersActions: c.TriggersActions, SKUBefore: c.SKUBefore(), SKUAfter: c.SKUAfter(),
		HourlyBefore: c.HourlyBefore(), HourlyAfter: c.HourlyAfter(), PriceBasis: c.PriceBasis(), PriceRegion: c.PriceRegion(),
		ListHourlyBefore: c.ListHourlyBefore(), ListHourlyAfter: c.ListHourlyAfter(), PriceNote: c.PriceNote(), Capacity: c.Capacity(),
		Deposed: c.src().Deposed, CountBefore: c.CountBefore(), CountAfter: c.CountAfter(),
		DiffDigest: c.DiffDigest(), KnownDiffDigest: c.KnownDiffDigest(), UnknownPaths: c.UnknownPaths(),
		ProviderUpgrades: c.upgradeNames(),
	}
}

// upgradeNames are the names of ProviderUpgrades (nil for none).
func (c *Change) upgradeNames() []string {
	if len(c.ProviderUpgrades) == 0 {
		return nil
	}
	names := make([]string, len(c.ProviderUpgrades))
	for i, u := range c.ProviderUpgrades {
		names[i] = u.Name
	}
	return names
}

// MarshalJSON writes the change as its Row.
func (c *Change) MarshalJSON() ([]byte, error) { return json.Marshal(c.Row()) }

// Address is the resource instance address.
func (c *Change) Address() string { return c.src().Address }

// Type is the resource type.
func (c *Change) Type() string { return c.src().Type }

// Mode is "managed" or "data".
func (c *Change) Mode() string { return string(c.src().Mode) }

// Action is the change's action: create, update, delete, replace, ...
func (c *Change) Action() string { return string(c.src().Action) }

// ReplaceOrder is a replacement's order ("" when it is not one).
func (c *Change) ReplaceOrder() string { return string(c.src().ReplaceOrder) }

// PreviousAddress is the address a moved resource had.
func (c *Change) PreviousAddress() string { return c.src().PreviousAddress }

// Importing reports whether the change imports the resource.
func (c *Change) Importing() bool { return c.src().Importing != nil }

// ReplacePaths are the attributes that force a replacement, their map keys
// shown by the allow-list (planparse.ShownPath); never nil.
func (c *Change) ReplacePaths() []string { return shownPaths(c.src().ReplacePaths) }

// Reason is the plan's action reason, in planparse's words (a fixed set).
func (c *Change) Reason() string { return c.src().Reason }

// SKUBefore is infra's SKU of the resource before the change.
func (c *Change) SKUBefore() string {
	if c.Resource == nil || c.Resource.Before == nil {
		return ""
	}
	return planparse.ShownName(c.Resource.Before.SKU)
}

// SKUAfter is infra's SKU of the resource after the change.
func (c *Change) SKUAfter() string {
	if c.Resource == nil || c.Resource.After == nil {
		return ""
	}
	return planparse.ShownName(c.Resource.After.SKU)
}

// src is the parsed change (a zero one for a row without).
func (c *Change) src() *planparse.Change {
	if c.Source == nil {
		return &noChange
	}
	return c.Source
}

// cost is infra's cost of the resource (zero without one).
func (c *Change) cost() *infra.Cost {
	if c.Resource == nil {
		return &noCost
	}
	return &c.Resource.Cost
}

// noChange and noCost stand in for a row's missing change and resource;
// they are only read.
var (
	noChange planparse.Change
	noCost   infra.Cost
)

// HourlyBefore is the hourly cost before the change (your price); nil when unknown.
func (c *Change) HourlyBefore() *float64 { return c.cost().HourlyBefore }

// HourlyAfter is the hourly cost after the change (your price); nil when unknown.
func (c *Change) HourlyAfter() *float64 { return c.cost().HourlyAfter }

// ListHourlyBefore is the list-price figure before the change.
func (c *Change) ListHourlyBefore() *float64 { return c.cost().ListHourlyBefore }

// ListHourlyAfter is the list-price figure after the change.
func (c *Change) ListHourlyAfter() *float64 { return c.cost().ListHourlyAfter }

// PriceBasis is "exact" or "approximate" (see ChangeRow); "" when nothing was priced.
func (c *Change) PriceBasis() string {
	switch k := c.cost(); {
	case len(k.PriceRegions) == 0:
		return ""
	case k.Approximate:
		return infra.BasisApproximate
	}
	return infra.BasisExact
}

// PriceRegion names the region(s) whose prices were used, joined with ",".
func (c *Change) PriceRegion() string {
	return planparse.ShownName(strings.Join(c.cost().PriceRegions, ","))
}

// Capacity is how the instances of the change's side after (before, for
// a delete) are bought when not on demand (ChangeRow.Capacity).
func (c *Change) Capacity() string {
	if c.Resource == nil {
		return ""
	}
	s := c.Resource.After
	if s == nil {
		s = c.Resource.Before
	}
	if s == nil {
		return ""
	}
	for i := range s.Groups {
		if k := s.Groups[i].Capacity; k != infra.CapacityOnDemand {
			return k
		}
	}
	return ""
}

// PriceNote says how the figures differ from list prices (see priceNote).
func (c *Change) PriceNote() string {
	if c.Resource == nil {
		return ""
	}
	return priceNote(c.Resource)
}

// Output is a root output change; sensitive values read "(sensitive)".
type Output struct {
	Name      string `json:"name"`
	Action    string `json:"action"`
	Sensitive bool   `json:"sensitive"`
	Before    string `json:"before"`
	After     string `json:"after"`
}

// Check is a check block or condition result.
type Check struct {
	Address  string   `json:"address"`
	Kind     string   `json:"kind"`
	Status   string   `json:"status"`
	Problems []string `json:"problems,omitempty"`
}

// Cost is a project's hourly estimate in USD.
type Cost struct {
	Currency       string     `json:"currency"`
	HourlyBefore   *float64   `json:"hourly_before"`
	HourlyAfter    *float64   `json:"hourly_after"`
	HourlyDelta    *float64   `json:"hourly_delta"`
	MaxHourlyAfter *float64   `json:"max_hourly_after"`
	Unpriced       []Unpriced `json:"unpriced"`
	// PricedResources and UnpricedResources count what the figures cover
	// and what they leave out.
	PricedResources   int `json:"priced_resources"`
	UnpricedResources int `json:"unpriced_resources"`
	// ApproximateResources counts the priced resources whose figures use
	// another region's list price (their changes say price_basis approximate).
	ApproximateResources int `json:"approximate_resources"`
	// MaxHourlyBefore and MaxHourlyDelta: every autoscaled fleet at its
	// maximum, before and after.
	MaxHourlyBefore *float64 `json:"max_hourly_before"`
	MaxHourlyDelta  *float64 `json:"max_hourly_delta"`
	// ListHourlyBefore, ListHourlyAfter and ListHourlyDelta are the figures
	// at list prices; they differ from the hourly ones when the config's
	// pricing applies (YourPriceResources counts the resources it changes).
	ListHourlyBefore   *float64 `json:"list_hourly_before"`
	ListHourlyAfter    *float64 `json:"list_hourly_after"`
	ListHourlyDelta    *float64 `json:"list_hourly_delta"`
	YourPriceResources int      `json:"your_price_resources"`
	// NotEstimated lists, once each, the resources of types that bill by
	// the hour but that planwarden does not estimate (databases, disks, load
	// balancers, ...): the figures leave them out.
	NotEstimated []NotEstimated `json:"not_estimated"`
	// MinHourlyAfter is every autoscaled fleet at its minimum.
	MinHourlyAfter *float64 `json:"min_hourly_after"`
}

// NotEstimated is a resource that bills by the hour outside the figures.
type NotEstimated struct {
	Address string `json:"address"`
	Type    string `json:"type"`
	// Kind says what it is: "database", "disk", "load balancer", ...
	Kind   string `json:"kind"`
	Action string `json:"action"`
	// Reason says why it is not estimated (a disk: which one and why).
	Reason string `json:"reason,omitempty"`
}

// Unpriced is an item whose cost cannot be known, and why.
type Unpriced struct {
	Address string `json:"address"`
	SKU     string `json:"sku"`
	Reason  string `json:"reason"`
	Region  string `json:"region,omitempty"`
	Side    string `json:"side,omitempty"` // before, after, or both (the same gap on both sides is one item)
	// Capacity is "spot" for spot capacity with no spot price, and
	// "capacity-block" for a Capacity Block; CeilingHourly is then, for
	// spot, the most it can cost an hour at the expected scale (the
	// on-demand price), never its expected cost.
	Capacity      string   `json:"capacity,omitempty"`
	CeilingHourly *float64 `json:"ceiling_hourly,omitempty"`
}
