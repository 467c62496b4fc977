package rules

import (
	"sync"

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
