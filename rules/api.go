package rules

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/planwarden/planwarden/par"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// Built-in rule ids. Every one runs by default; see docs/architecture.md for
// what each guards.
const (
	RuleGPUSKULoss          = "gpu-sku-loss"
	RuleGPUPoolSKU          = "gpu-pool-sku"
	RuleGPUPoolTaint        = "gpu-pool-taint"
	RuleRequiredTags        = "required-tags"
	RuleEndpointReplacement = "endpoint-replacement"
	RuleCostIncrease        = "cost-increase"
	RuleUnpricedSKU         = "unpriced-sku"
	RuleAllowedSKUs         = "allowed-skus"
	RuleIAMAdmin            = "iam-admin"
	RuleStatefulDelete      = "stateful-delete"
	RuleRetiredSKU          = "retired-sku"
	RuleActionInvocation    = "action-invocation"
	RuleGPUCapacityGap      = "gpu-capacity-gap"
	RuleGPUIncrease         = "gpu-increase"
	// RuleSKUUnknown reports a SKU known only after apply where a GPU
	// rule or an allow-list would judge it.
	RuleSKUUnknown = "sku-unknown"
	// RulePlanErrored blocks a plan that failed part way; it cannot be
	// configured, turned off or overridden.
	RulePlanErrored = "plan-errored"
)

// rule is one built-in guardrail.
type rule interface {
	// severity is the default severity of the rule's findings in s.
	severity(s *scope) Severity
	// check returns the rule's findings for one project.
	check(s *scope) []draft
}

// draft is a finding before Evaluate fills in the rule, project and final
// severity. A non-empty severity replaces the rule's default (cost-increase
// picks warn or block by threshold).
type draft struct {
	address, message, remedy string
	severity                 Severity
}

// builtins is the registry of built-in rules by id.
var builtins = map[string]rule{
	RuleGPUSKULoss:          gpuSKULoss{},
	RuleGPUPoolSKU:          gpuPoolSKU{},
	RuleGPUPoolTaint:        gpuPoolTaint{},
	RuleRequiredTags:        requiredTags{},
	RuleEndpointReplacement: endpointReplacement{},
	RuleCostIncrease:        costIncrease{},
	RuleUnpricedSKU:         unpricedSKU{},
	RuleAllowedSKUs:         allowedSKUs{},
	RuleIAMAdmin:            iamAdmin{},
	RuleStatefulDelete:      statefulDelete{},
	RulePlanErrored:         planErrored{},
	RuleRetiredSKU:          retiredSKU{},
	RuleActionInvocation:    actionInvocation{},
	RuleGPUCapacityGap:      gpuCapacityGap{},
	RuleGPUIncrease:         gpuIncrease{},
	RuleSKUUnknown:          skuUnknown{},
}

func isBuiltin(id string) bool { _, ok := builtins[id]; return ok || provenanceRules[id] }

// Provenance rules: findings about where the plans came from rather than
// what they change. The app decides them from GitHub's facts (which
// workflow ran, what the pull request changed) and the base-branch
// config, and hands them to Conclude with the plans' findings.
const (
	// RulePlanWorkflowChanged blocks a review whose plan workflow, or a
	// file it uses from the repository, is changed by the pull request:
	// the artifact was made by the pull request's own version of it.
	RulePlanWorkflowChanged = "plan-workflow-changed"
	// RuleUnknownProject blocks a plan for a project the config does not
	// declare (when it declares projects); it cannot be overridden.
	RuleUnknownProject = "unknown-project"
	// RuleMissingPlan blocks a review that lacks the plan of a declared
	// project the pull request changes; it cannot be overridden.
	RuleMissingPlan = "missing-plan"
	// RulePlanWorkflowUnreadable blocks a review whose plan workflow (or
	// a local action it uses) has a run: step holding a word planwarden
	// cannot place (a command in a variable, a path built at run time),
	// unless plan_workflow_inputs covers it: planwarden cannot tell
	// whether the pull request changes what that step runs.
	RulePlanWorkflowUnreadable = "plan-workflow-unreadable"
	// RulePlanRunsPRCode blocks a review (with plan_source: dispatch)
	// whose pull request makes terraform plan run code of its own: a new
	// or changed data "external", a changed provider source or version,
	// a changed .terraform.lock.hcl.
	RulePlanRunsPRCode = "plan-runs-pr-code"
)

var provenanceRules = map[string]bool{RulePlanWorkflowChanged: true, RuleUnknownProject: true, RuleMissingPlan: true,
	RulePlanWorkflowUnreadable: true, RulePlanRunsPRCode: true}

// BuiltinRules returns the ids of the built-in rules, the provenance rules
// included, sorted.
func BuiltinRules() []string { return sortedKeys(mapUnion(builtins, provenanceRules)) }

func mapUnion[V any](m map[string]V, set map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+len(set))
	for k := range m {
		out[k] = true
	}
	for k := range set {
		out[k] = true
	}
	return out
}

// builtinIDs are the built-in rules' ids, sorted: the order they run in.
var builtinIDs = sync.OnceValue(func() []string { return sortedKeys(builtins) })

// scope is what a rule sees of one project.
type scope struct {
	cfg       *Config
	project   Project
	env       string
	protected bool
	// unnamed is true when nothing named the environment (env is
	// DefaultEnvironmentName and the config does not declare it): the
	// plan could be prod's, so rules that block in protected
	// environments block here too (strict).
	unnamed   bool
	changes   []*planparse.Change
	resources []*infra.Resource
	resByAddr map[objectKey]*infra.Resource   // by address and deposed key, built on first use
	chByAddr  map[objectKey]*planparse.Change // by address and deposed key, built on first use
	custom    []celSubject                    // what custom rules see, built on first use
	endpoints []*planparse.Change             // SageMaker endpoints, built on first use
	listed    bool
	// endpointKeys and replaced are the small indexes the built-in rules
	// need, built on first use without hashing every change's address.
	endpointKeys map[objectKey]bool
	replaced     map[objectKey]*planparse.Change
	changed      []changedResource // built on first use
	listedChange bool
	texts        texts // the findings' messages
	// spareDrafts is the room rules make their drafts in (see spare),
	// made on first use.
	spareDrafts []draft
	// all are every project evaluated together; first is set in the
	// first one's scope, which judges what spans them (cost centers).
	all   []Project
	first bool
}

// changedResource is a resource being created or changed (it has an after
// side and its action is create, update or replace), with whether its
// after side has GPUs and whether it bills through another resource
// (Cost.BilledVia).
type changedResource struct {
	r      *infra.Resource
	gpu    bool
	billed bool
}

// changedResources lists the resources most built-in rules judge, in
// order, once per project: each rule walks them rather than all the
// resources, and reads whether they have GPUs from the list.
func (s *scope) changedResources() []changedResource {
	if !s.listedChange {
		s.changed = make([]changedResource, 0, len(s.resources))
		for _, r := range s.resources {
			if a := s.action(r); r.After != nil && changing(a) {
				s.changed = append(s.changed, changedResource{r, r.After.HasGPU(), r.Cost.BilledVia != ""})
			}
		}
		s.listedChange = true
	}
	return s.changed
}

// isEndpoint reports whether infra sees the change's resource as a
// serving endpoint: resourceOf(ch).Kind == KindEndpoint, from an index of
// the endpoints alone.
func (s *scope) isEndpoint(ch *planparse.Change) bool {
	if s.endpointKeys == nil {
		s.endpointKeys = map[objectKey]bool{}
		for _, r := range s.resources {
			if r != nil && r.Kind == infra.KindEndpoint {
				s.endpointKeys[objectKey{r.Address, r.Deposed}] = true
			}
		}
	}
	return s.endpointKeys[objectKey{ch.Address, ch.Deposed}]
}

// replacement is changeOf(r) for a resource whose change replaces it,
// from an index of the replacing changes alone.
func (s *scope) replacement(r *infra.Resource) *planparse.Change {
	if s.replaced == nil {
		s.replaced = map[objectKey]*planparse.Change{}
		for _, ch := range s.changes {
			if ch.Action == planparse.ActionReplace {
				s.replaced[objectKey{ch.Address, ch.Deposed}] = ch
			}
		}
	}
	return s.replaced[objectKey{r.Address, r.Deposed}]
}

// sagemakerEndpoints lists the scope's SageMaker endpoint changes once, so
// a check per endpoint configuration does not walk every change again.
func (s *scope) sagemakerEndpoints() []*planparse.Change {
	if !s.listed {
		for _, ch := range s.changes {
			if ch.Type == "aws_sagemaker_endpoint" {
				s.endpoints = append(s.endpoints, ch)
			}
		}
		s.listed = true
	}
	return s.endpoints
}

// objectKey is an address and a deposed object key: a plan can list an
// address twice, its current object and a deposed one.
type objectKey struct{ address, deposed string }

// resourceOf is infra's view of the change's resource (nil: none).
func (s *scope) resourceOf(ch *planparse.Change) *infra.Resource {
	if s.resByAddr == nil {
		s.resByAddr = make(map[objectKey]*infra.Resource, len(s.resources))
		for _, r := range s.resources {
			if r != nil {
				s.resByAddr[objectKey{r.Address, r.Deposed}] = r
			}
		}
	}
	return s.resByAddr[objectKey{ch.Address, ch.Deposed}]
}

// changeOf is the change infra made r from (nil: none).
func (s *scope) changeOf(r *infra.Resource) *planparse.Change {
	if s.chByAddr == nil {
		s.chByAddr = make(map[objectKey]*planparse.Change, len(s.changes))
		for _, ch := range s.changes {
			s.chByAddr[objectKey{ch.Address, ch.Deposed}] = ch
		}
	}
	return s.chByAddr[objectKey{r.Address, r.Deposed}]
}

// strict reports whether rules that block only in protected environments
// block: in one, or where no environment was named.
func (s *scope) strict() bool { return s.protected || s.unnamed }

// unnamedRemedy ends the remedy of a finding that blocks because nothing
// named the project's environment.
const unnamedRemedy = " This blocks because no environment is known for the project (no repo config names one for it), so it could be prod: declare the project and its environment in .github/planwarden.yml (planwarden init writes one; set the environment it leaves out), and in an unprotected environment this only warns."

func newScope(c *Config, p Project) *scope {
	s := &scope{cfg: c, project: p, env: p.Environment}
	if s.env == "" {
		s.env = c.EnvironmentOf(p.Name)
	}
	if s.env == "" {
		s.env = DefaultEnvironmentName
	}
	s.protected = c.IsProtected(s.env)
	if _, declared := c.Environments[DefaultEnvironmentName]; s.env == DefaultEnvironmentName && !declared {
		s.unnamed = true
	}
	if p.Plan != nil {
		s.changes = p.Plan.Changes
	}
	s.resources = p.Resources
	return s
}

// Result is the outcome of evaluating projects.
type Result struct {
	// Findings are ordered: un-overridden blocking findings first, then
	// overridden blocking findings, warnings, and information; within each,
	// by project, address, rule and message.
	Findings []Finding
	Verdict  Verdict
}

// Evaluate runs every rule (built-in and custom) over the projects and
// applies overrides. A project's environment is its Environment, else the
// config's environment for its name, else "default". An override applies
// to the blocking findings of its rule, at its address (or every address
// when empty), in its project (or every project when empty); it is
// recorded on the finding, which keeps its severity. Evaluate trusts that
// the caller authorized each override (see MayOverride), but never applies
// one to plan-errored.
//
// The verdict is fail when a blocking finding is not overridden, warn when
// there are warnings or overridden blocking findings, and pass otherwise.
func (c *Config) Evaluate(projects []Project, overrides []Override) Result {
	return c.EvaluateWith(projects, nil, overrides)
}

// EvaluateWith is Evaluate with findings made outside the plans (the
// app's provenance findings) joining the plans' findings under one
// verdict: the same result as Conclude(append(Evaluate(projects,
// nil).Findings, extra...), overrides), without sorting twice.
func (c *Config) EvaluateWith(projects []Project, extra []Finding, overrides []Override) Result {
	if c == nil {
		c = DefaultConfig()
	}
	settings := c.Rules.byID()
	// Every rule runs first, so that the findings are allocated once at
	// their number (12,000 on a large plan), then each draft is completed
	// in the same order.
	var batches []batch
	n := len(extra)
	for i, p := range projects {
		s := newScope(c, p)
		s.all, s.first = projects, i == 0 // the roll-up by cost center spans them
		var runs []run
		for _, id := range builtinIDs() {
			set := settings[id]
			if set != nil && set.severityFor(s.env, "") == SeverityOff {
				continue
			}
			runs = append(runs, run{id: id, r: builtins[id], set: set})
		}
		if len(c.custom) > 0 {
			runs = append(runs, run{custom: c.custom})
		}
		drafts := make([][][]draft, len(runs))
		if len(s.changes) >= parallelChanges && len(runs) > 1 && runtime.GOMAXPROCS(0) > 1 {
			checkConcurrently(s, runs, drafts)
		} else {
			for i := range runs {
				drafts[i] = runs[i].check(s)
			}
		}
		for i, ru := range runs {
			for j, ds := range drafts[i] {
				if len(ds) == 0 {
					continue
				}
				b := batch{s: s, id: ru.id, r: ru.r, set: ru.set, drafts: ds}
				if ru.custom != nil {
					b.id = ru.custom[j].def.ID
				}
				batches = append(batches, b)
				n += len(ds)
			}
		}
	}
	findings := make([]Finding, 0, n)
	if drafts := n - len(extra); drafts >= parallelFindings && runtime.GOMAXPROCS(0) > 1 {
		findings = c.completeConcurrently(batches, findings, drafts)
	} else {
		findings = c.complete(batches, findings)
	}
	return c.conclude(append(findings, extra...), overrides)
}

// complete appends the findings of the batches' drafts to out, in order,
// leaving out those whose severity is off.
func (c *Config) complete(batches []batch, out []Finding) []Finding {
	// A blocking finding's remedy ends with the same override hint as
	// every other of its rule: the joined texts are made once.
	remedies := remedyTexts{m: map[remedyKey]string{}}
	for _, b := range batches {
		for _, d := range b.drafts {
			sev := d.severity
			if b.r != nil { // a built-in rule: its default, then the config's setting
				if sev == "" {
					sev = b.r.severity(b.s)
				}
				sev = b.set.severityFor(b.s.env, sev)
			}
			if sev == SeverityOff {
				continue
			}
			out = append(out, c.finding(b.s, b.id, sev, d, &remedies))
		}
	}
	return out
}

// parallelFindings is the number of drafts from which EvaluateWith
// completes them into findings on two goroutines (tests lower it).
var parallelFindings = 20_000

// completeConcurrently is complete on two goroutines, for drafts drafts
// (out has room for them): the second completes the later half of the
// drafts into out from the half's position on, and what it made moves
// down to follow the first half's findings when that half left some out.
func (c *Config) completeConcurrently(batches []batch, out []Finding, drafts int) []Finding {
	half := drafts / 2
	var first, second []batch
	seen := 0
	for i, b := range batches {
		if seen+len(b.drafts) <= half {
			seen += len(b.drafts)
			continue
		}
		first = append(batches[:i:i], b)
		first[i].drafts = b.drafts[:half-seen]
		second = append([]batch{b}, batches[i+1:]...)
		second[0].drafts = b.drafts[half-seen:]
		break
	}
	var head, tail []Finding
	par.Each(2, func(k int) {
		if k == 0 {
			tail = c.complete(second, out[half:half])
		} else {
			head = c.complete(first, out[:0:half])
		}
	})
	if len(head) == half {
		return out[:half+len(tail)]
	}
	return append(out[:len(head)], tail...) // moved down over the gap
}

// parallelChanges is the number of changes from which a project's rules
// run on two goroutines (when the process has two CPUs): below it, the
// second goroutine costs more than it saves. Tests lower it to take the
// concurrent path on small plans.
var parallelChanges = 40_000

// run is one built-in rule to run over a project, or (custom non-nil) the
// config's custom rules, which run together: they share the project's
// subjects, built on first use.
type run struct {
	id     string
	r      rule
	set    *RuleSetting
	custom []*customRule
}

// check returns the run's drafts: one list for a built-in rule, one per
// custom rule.
func (ru *run) check(s *scope) [][]draft {
	if ru.custom == nil {
		return [][]draft{s.keep(ru.r.check(s))}
	}
	out := make([][]draft, len(ru.custom))
	for i, cr := range ru.custom {
		out[i] = s.keep(cr.check(s))
	}
	return out
}

// spare is an empty slice for a rule's drafts (rules start from it rather
// than from nil), with the room of the scope's spare drafts: a rule that
// makes thousands no longer grows its slice by a quarter at a time
// (about five times their size allocated on a large plan). keep moves
// them out before the next rule starts from it again.
func (s *scope) spare() []draft {
	if s.spareDrafts == nil {
		s.spareDrafts = make([]draft, 0, max(16, len(s.changes)/4))
	}
	return s.spareDrafts[:0]
}

// keep returns a rule's drafts in a slice of their own, of their size,
// and keeps the room of ds (the scope's spare drafts, or a larger slice
// the rule grew) for the next rule.
func (s *scope) keep(ds []draft) []draft {
	if len(ds) == 0 {
		return nil
	}
	out := make([]draft, len(ds))
	copy(out, ds)
	if cap(ds) > cap(s.spareDrafts) {
		s.spareDrafts = ds[:0]
	}
	return out
}

// heavyFirst are the built-in rules that cost most on large plans (they
// read attributes of many resources or describe many findings): the
// goroutines of checkConcurrently take them first, then the rest in
// order, so that neither is left with a long rule at the end.
var heavyFirst = []string{RuleRequiredTags, RuleCostIncrease, RuleIAMAdmin, RuleEndpointReplacement, RuleStatefulDelete, RuleGPUCapacityGap, RuleUnpricedSKU}

// checkConcurrently runs the runs over s on two goroutines, each taking
// the next run not yet taken, and puts each run's drafts at its index in
// out: the same drafts, in the same places, as running them in order.
// Each goroutine has its own copy of the scope (the indexes a rule builds
// on first use and the findings' text blocks are a goroutine's own); the
// changed resources most rules walk are listed before, and shared.
func checkConcurrently(s *scope, runs []run, out [][][]draft) {
	s.changedResources()
	order := make([]int, 0, len(runs))
	for _, id := range heavyFirst {
		for i := range runs {
			if runs[i].custom == nil && runs[i].id == id {
				order = append(order, i)
			}
		}
	}
	for i := range runs {
		if runs[i].custom != nil || !slices.Contains(heavyFirst, runs[i].id) {
			order = append(order, i)
		}
	}
	var next atomic.Int32
	work := func(s *scope) {
		for {
			k := int(next.Add(1)) - 1
			if k >= len(order) {
				return
			}
			i := order[k]
			out[i] = runs[i].check(s)
		}
	}
	other := *s // before any rule ran: its indexes, text block and spare drafts are empty
	// A rule that panics on the second goroutine panics in the caller, as
	// it would on one (the app's handler recovers it), once both stopped.
	par.Each(2, func(k int) {
		if k == 0 {
			work(&other)
		} else {
			work(s)
		}
	})
}

// batch is the drafts one rule made for one project; r and set are nil
// for a custom rule (its drafts carry their severity).
type batch struct {
	s      *scope
	id     string
	r      rule
	set    *RuleSetting
	drafts []draft
}

// Conclude applies overrides to findings (as Evaluate does), orders them and
// gives the verdict. The app calls it with the plans' findings and the
// provenance findings together, so one verdict covers both.
func (c *Config) Conclude(findings []Finding, overrides []Override) Result {
	if c == nil {
		c = DefaultConfig()
	}
	return c.conclude(slices.Clone(findings), overrides)
}

// conclude is Conclude on findings it may reorder and change.
func (c *Config) conclude(findings []Finding, overrides []Override) Result {
	if findings == nil {
		findings = []Finding{}
	}
	for i := range findings {
		f := &findings[i]
		if f.Severity != SeverityBlock || !c.Overridable(f.Rule) {
			continue
		}
		for _, o := range overrides {
			if o.Rule == f.Rule && (o.Address == "" || o.Address == f.Address) && (o.Project == "" || o.Project == f.Project) &&
				(o.Digest == "" || o.Digest == FindingDigest(*f)) {
				o := o
				f.Override = &o
				break
			}
		}
	}
	sortFindings(findings)
	return Result{Findings: findings, Verdict: VerdictOf(findings)}
}

// VerdictOf is the verdict of a set of findings: fail with a blocking
// finding that is not overridden, warn with a warning or an overridden
// blocking finding, else pass.
func VerdictOf(findings []Finding) Verdict {
	v := VerdictPass
	for _, f := range findings {
		switch {
		case f.Severity == SeverityBlock && f.Override == nil:
			v = VerdictFail
		case (f.Severity == SeverityWarn || f.Severity == SeverityBlock) && v == VerdictPass:
			v = VerdictWarn
		}
	}
	return v
}

// sortFindings puts findings in Result's order: by rank, project,
// address, rule and message, findings alike in all five keeping the order
// they came in. It sorts their positions (pattern-defeating quicksort, the
// position the last key, which makes it stable) and moves each finding
// once, rather than merging the 104-byte findings in place.
func sortFindings(findings []Finding) {
	if len(findings) < 2 {
		return
	}
	pos := make([]int32, len(findings))
	ranks := make([]int8, len(findings))
	for i := range findings {
		pos[i], ranks[i] = int32(i), int8(rank(findings[i]))
	}
	order := func(i, j int32) int {
		if ranks[i] != ranks[j] {
			return cmp.Compare(ranks[i], ranks[j])
		}
		a, b := &findings[i], &findings[j]
		if c := strings.Compare(a.Project, b.Project); c != 0 {
			return c
		}
		if c := strings.Compare(a.Address, b.Address); c != 0 {
			return c
		}
		if c := strings.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		if c := strings.Compare(a.Message, b.Message); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	}
	if len(pos) >= parallelSort && runtime.GOMAXPROCS(0) > 1 {
		pos = sortHalves(pos, order)
	} else {
		slices.SortFunc(pos, order)
	}
	// Follow each cycle of the permutation: the finding at pos[k] goes to k.
	for start := range findings {
		if pos[start] < 0 {
			continue
		}
		held, k := findings[start], start
		for {
			from := int(pos[k])
			pos[k] = -1
			if from == start {
				findings[k] = held
				break
			}
			findings[k] = findings[from]
			k = from
		}
	}
}

func rank(f Finding) int {
	switch {
	case f.Severity == SeverityBlock && f.Override == nil:
		return 0
	case f.Severity == SeverityBlock:
		return 1
	case f.Severity == SeverityWarn:
		return 2
	}
	return 3
}

// remedyKey is a blocking finding's rule, environment and own remedy.
type remedyKey struct{ rule, env, remedy string }

// finding completes a draft; a blocking finding's remedy ends with who may
// override it.
// remedyTexts are the remedies of blocking findings joined with their
// override hints, by key; the last key asked is kept apart, as a rule's
// findings mostly share one remedy string (compared without hashing it).
type remedyTexts struct {
	m        map[remedyKey]string
	last     remedyKey
	lastText string
}

func (c *Config) finding(s *scope, id string, sev Severity, d draft, remedies *remedyTexts) Finding {
	f := Finding{Rule: id, Severity: sev, Address: d.address, Message: d.message, Project: s.project.Name, Remedy: d.remedy}
	if sev == SeverityBlock {
		k := remedyKey{id, s.env, d.remedy}
		if remedies.lastText == "" || k != remedies.last {
			r, ok := remedies.m[k]
			if !ok {
				r = joinSentences(d.remedy, c.overrideHint(id, s.env))
				remedies.m[k] = r
			}
			remedies.last, remedies.lastText = k, r
		}
		f.Remedy = remedies.lastText
	}
	return f
}

// overrideHint says who may let a blocking finding of rule pass in env.
func (c *Config) overrideHint(id, env string) string {
	if !c.Overridable(id) {
		return "This cannot be overridden."
	}
	users, teams, labels := c.Overriders(id, env)
	var who []string
	if len(users) > 0 {
		who = append(who, plural(len(users), "user", "users")+" "+strings.Join(users, ", "))
	}
	if len(teams) > 0 {
		who = append(who, plural(len(teams), "team", "teams")+" "+strings.Join(teams, ", "))
	}
	file := c.file
	if file == "" {
		file = ConfigPath
	}
	if len(who) == 0 && len(labels) == 0 {
		return fmt.Sprintf("No one may override %s in %s: list who may under overrides.%s in %s on the base branch.", id, env, id, file)
	}
	var parts []string
	if len(who) > 0 {
		parts = append(parts, "To accept it anyway, "+strings.Join(who, " or ")+" may comment "+code("/override "+id))
	}
	if len(labels) > 0 {
		l := make([]string, len(labels))
		for i, x := range labels {
			l[i] = code(x)
		}
		lead := "To accept it anyway, add"
		if len(parts) > 0 {
			lead = "or add"
		}
		parts = append(parts, fmt.Sprintf("%s the pull request label %s", lead, strings.Join(l, " or ")))
	}
	return strings.Join(parts, ", ") + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func joinSentences(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}
