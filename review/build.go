package review

import (
	"slices"
	"strings"

	"github.com/planwarden/planwarden/par"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// DefaultEnvironment is the environment of a project that neither the
// caller nor the config names.
const DefaultEnvironment = rules.DefaultEnvironmentName

// Input is one plan to review.
type Input struct {
	// Name is the project name; Environment its environment ("" lets the
	// config decide, else DefaultEnvironment).
	Name        string
	Environment string
	Plan        *planparse.Plan
	// ProviderUpgrades are the providers the change moves to another
	// version (from the base and head lock files); every replacement of
	// the project names them.
	ProviderUpgrades []ProviderUpgrade
}

// Options configure Build. Zero values mean the defaults.
type Options struct {
	Config    *rules.Config
	Catalog   *infra.Catalog
	Overrides []rules.Override
	// Findings are made outside the plans (the app's provenance findings:
	// plan-workflow-changed, unknown-project, missing-plan); they join the
	// plans' findings under one verdict. A finding whose project is not
	// among the inputs goes with the first project.
	Findings []rules.Finding
	// Notes are sentences for the reviewer about how the review was made
	// (metadata that was ignored, runs that were not trusted); they are
	// shown in the comment and the JSON report.
	Notes []string
	// DefaultRegion applies when a resource and its provider name no region.
	DefaultRegion string
	// DigestKey keys the digests that stand for text the outputs do not
	// show (planparse.Viewer). A key of the pull request's (PRDigestKey)
	// makes an unchanged script read the same in each of its reviews.
	// Empty: a key drawn once per process.
	DigestKey []byte
	// Par decides which work goes on other goroutines (zero: the default
	// policy; tests force the concurrent paths on small plans): the
	// report is the same whatever it decides.
	Par par.Policy
	// Digests makes the keyed digests of every change and of each
	// project's change set (digest.go): the JSON report's and the check
	// run's record of what was reviewed, and what `planwarden verify`
	// compares. They cost a decode of the attributes a change writes that
	// differ (planparse's Diff): the App always makes them (MakeDigests,
	// for its check run's record); the CLI's review when asked.
	Digests bool
}

// Build reviews the inputs into one Report. Projects keep the input
// order; changes keep the plan's order. Every slice in the report is
// non-nil, so the JSON has [] rather than null.
func Build(inputs []Input, opt Options) *Report {
	if opt.Config == nil {
		opt.Config = rules.DefaultConfig()
	}
	if opt.Catalog == nil {
		opt.Catalog = infra.DefaultCatalog()
	}
	r := &Report{SchemaVersion: SchemaVersion, Projects: make([]*Project, len(inputs)), Overrides: []rules.Override{},
		Viewer: planparse.NewViewer(opt.DigestKey, opt.Config.ShowsText)}
	ruleIn := make([]rules.Project, 0, len(inputs))
	var later []func() // rows made beside the rules
	for i, in := range inputs {
		env := in.Environment
		if env == "" {
			env = opt.Config.EnvironmentOf(in.Name)
		}
		if env == "" {
			env = DefaultEnvironment
		}
		resources := infra.Analyze(in.Plan, opt.Catalog, infra.Options{DefaultRegion: opt.DefaultRegion, Pricing: opt.Config.InfraPricing(), Par: opt.Par})
		sum := infra.Sum(resources) // for the report's cost and the cost rules alike
		ruleIn = append(ruleIn, rules.Project{Name: in.Name, Environment: env, Plan: in.Plan, Resources: resources, Sum: &sum})
		if opt.Par.Split(par.Changes, len(in.Plan.Changes)) {
			// A large plan's rows are made while the rules run: both
			// only read the plan and infra's resources.
			later = append(later, func() {
				r.Projects[i] = newProject(in.Name, env, in.Plan, resources, sum, r.Viewer)
			})
			continue
		}
		r.Projects[i] = newProject(in.Name, env, in.Plan, resources, sum, r.Viewer)
	}
	// Rows that panic on another goroutine panic here, as they would on
	// this one (the app's handler recovers it), once the rules and every
	// row are done.
	var res rules.Result
	par.Each(len(later)+1, func(k int) {
		if k < len(later) {
			later[k]()
			return
		}
		res = opt.Config.EvaluateWithPolicy(opt.Par, ruleIn, opt.Findings, opt.Overrides)
	})
	for i, p := range r.Projects {
		p.upgrade(inputs[i].ProviderUpgrades)
		if opt.Digests {
			p.digestChanges(opt.Par)
		}
	}
	r.Notes = append([]string{}, opt.Notes...)
	r.Verdict = res.Verdict
	byName := map[string]*Project{}
	for _, p := range r.Projects {
		byName[p.Name] = p
	}
	if len(r.Projects) == 1 {
		// Every finding is the one project's: the result's slice is its
		// own, not a copy grown by appending (12,000 findings on a large plan).
		r.Projects[0].Findings = res.Findings
	}
	for _, f := range res.Findings {
		p := byName[f.Project]
		if p == nil && len(r.Projects) > 0 {
			p = r.Projects[0]
		}
		if p != nil && len(r.Projects) > 1 {
			p.Findings = append(p.Findings, f)
		}
		if f.Override != nil {
			r.Overrides = append(r.Overrides, *f.Override)
		}
	}
	r.Totals = totals(r.Projects)
	r.CostCenters, r.CostCenterTags = costCenters(opt.Config, r.Projects), opt.Config.CostCenterTags()
	return r
}

func newProject(name, env string, plan *planparse.Plan, resources []*infra.Resource, sum infra.PlanCost, show *planparse.Viewer) *Project {
	p := &Project{
		Name: name, Environment: env, PlanFile: plan.File,
		TerraformVersion: planparse.ShownName(plan.TerraformVersion), FormatVersion: planparse.ShownName(plan.FormatVersion),
		Timestamp: planparse.ShownName(plan.Timestamp), Errored: plan.Errored,
		Complete: !plan.Errored && (plan.Complete == nil || *plan.Complete),
		Changes:  make([]*Change, 0, len(plan.Changes)),
		Drift:    []*Change{}, Deferred: []*Change{}, Outputs: []*Output{}, Checks: []*Check{},
		Findings: []rules.Finding{},
		Plan:     plan, Resources: resources,
	}
	// infra.Analyze makes its resources from the plan's changes in order,
	// skipping those it does not model, so they pair up in one walk. An
	// address can be listed twice (a replacement and its deposed
	// object's delete): matched by address, both rows would show the
	// figures of one of them.
	rows := make([]Change, len(plan.Changes)) // one allocation for every row
	next := 0
	for i, c := range plan.Changes {
		var res *infra.Resource
		if next < len(resources) && resources[next].Address == c.Address {
			res = resources[next]
			next++
		}
		fillChange(&rows[i], c, res)
		p.Changes = append(p.Changes, &rows[i])
		p.Summary.count(c)
	}
	for _, c := range plan.Drift {
		p.Drift = append(p.Drift, newChange(c, nil))
	}
	for _, d := range plan.Deferred {
		ch := newChange(d.Change, nil)
		ch.DeferredReason = planparse.ShownProse(d.Reason)
		p.Deferred = append(p.Deferred, ch)
	}
	for _, o := range plan.Outputs {
		if o.Action == planparse.ActionNoop {
			continue
		}
		p.Outputs = append(p.Outputs, shownOutput(show, o))
	}
	for _, c := range plan.Checks {
		p.Checks = append(p.Checks, &Check{Address: c.Address, Kind: c.Kind, Status: c.Status, Problems: shownProblems(c.Problems)})
	}
	p.Actions, p.DeferredActions = actions(plan, show)
	linkActions(p.Changes, p.Actions)
	p.Tool, p.Skipped = ToolTerraform, skipped(plan)
	if plan.Tool != "" {
		p.Tool = plan.Tool
	}
	p.Cost = projectCost(sum, notEstimated(plan, resources))
	return p
}

func newChange(c *planparse.Change, res *infra.Resource) *Change {
	ch := &Change{}
	fillChange(ch, c, res)
	return ch
}

// fillChange sets a report row from a change and infra's view of it.
func fillChange(ch *Change, c *planparse.Change, res *infra.Resource) {
	*ch = Change{Source: c, Resource: res}
}

func (s *Summary) count(c *planparse.Change) {
	switch c.Action {
	case planparse.ActionCreate:
		s.Create++
	case planparse.ActionUpdate:
		s.Update++
	case planparse.ActionDelete:
		s.Delete++
	case planparse.ActionReplace:
		s.Replace++
	case planparse.ActionRead:
		s.Read++
	case planparse.ActionForget:
		s.Forget++
	case planparse.ActionNoop:
		s.NoOp++
	}
	if c.PreviousAddress != "" && c.PreviousAddress != c.Address {
		s.Move++
	}
	if c.Importing != nil {
		s.Import++
	}
}

// priceNote says how a change's figures differ from list prices: "your
// price", "28% discount", or both joined; "" for list prices.
func priceNote(r *infra.Resource) string {
	var notes []string
	for _, s := range []*infra.Side{r.Before, r.After} {
		if s == nil {
			continue
		}
		for gi := range s.Groups {
			g := &s.Groups[gi]
			if g.PriceNote != "" && !slices.Contains(notes, g.PriceNote) {
				notes = append(notes, g.PriceNote)
			}
		}
	}
	return strings.Join(notes, ", ")
}
