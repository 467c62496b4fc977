package rules

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Where a repo keeps its config, relative to the repository root. The app
// reads them from the pull request's base branch, so a pull request cannot
// loosen the rules that gate it; `planwarden validate` and `review` look
// for them in the current directory.
const (
	// ConfigPath is the preferred location of the repo config.
	ConfigPath = ".github/planwarden.yml"
	// AltConfigPath is accepted when ConfigPath does not exist.
	AltConfigPath = ".planwarden.yml"
)

// ConfigPaths are where a repo keeps its config, in the order they are
// tried: the first that exists is the config.
var ConfigPaths = []string{ConfigPath, AltConfigPath}

// ConfigVersion is the only config version this build understands.
const ConfigVersion = 1

// DefaultEnvironmentName is the environment of a project that neither the
// caller nor the config names.
const DefaultEnvironmentName = "default"

// DefaultDestroyWorkflow is the workflow `/destroy-staging` dispatches for
// the default `staging` environment.
const DefaultDestroyWorkflow = "destroy-staging.yml"

// Config is a repo's planwarden configuration: version 1 of
// .github/planwarden.yml. Its exported fields mirror the file (the JSON
// Schema in planwarden.schema.json is generated from them); build one with
// DefaultConfig or ParseConfig, which validate it and compile its custom
// rules (a Config built by hand runs no custom rules). A Config is not
// changed by its methods, so one may serve concurrent Evaluate calls.
type Config struct {
	Version            int                          `yaml:"version" doc:"Config format version; must be 1." enum:"1" required:"true"`
	Projects           []ProjectConfig              `yaml:"projects,omitempty" doc:"Terraform projects (root modules) of the repo and the plan artifact CI uploads for each."`
	Environments       map[string]EnvironmentConfig `yaml:"environments,omitempty" doc:"Environments by name. An entry replaces the built-in entry of the same name (prod is protected; staging may be destroyed with /destroy-staging)."`
	Rules              RuleSettings                 `yaml:"rules,omitempty" doc:"Settings of the built-in rules."`
	Overrides          map[string]OverridePolicy    `yaml:"overrides,omitempty" doc:"Who may override a blocking finding, by rule id (built-in or custom), or * for every rule." keys:"rule"`
	CustomRules        []CustomRule                 `yaml:"custom_rules,omitempty" doc:"Rules of your own: a CEL condition over each change and its project."`
	PlanWorkflows      []string                     `yaml:"plan_workflows,omitempty" doc:"Workflow files, as paths from the repo root, whose runs make the plans planwarden reviews; every other workflow's artifacts are ignored; /plan dispatches the first. Default: [.github/workflows/planwarden-plan.yml]." pattern:"^\\.github/workflows/[A-Za-z0-9._-]+\\.ya?ml$"`
	PlanWorkflowInputs []string                     `yaml:"plan_workflow_inputs,omitempty" doc:"Repository files the plan workflows run besides workflow and action files (scripts, Makefiles, tool configs), as globs from the repo root (infra/scripts/**). A pull request that changes one fails the check with plan-workflow-changed, like a change to a plan workflow itself. Scripts a workflow's run: steps name (./plan.sh, scripts/plan.py, make) are found without it."`
	// The gate's inputs: what passes without a plan, where trusted plans
	// come from, and which bots may approve (issue 36).
	NoPlanPaths   []string `yaml:"no_plan_paths,omitempty" doc:"Globs of repository files that need no plan: a pull request whose every changed file matches one passes at once without a plan. Any other pull request waits for the trusted plan workflow. Default: documentation only (**/*.md, **/*.mdx, **/*.rst, **/*.adoc, docs/**, LICENSE*, NOTICE*, AUTHORS*, .github/ISSUE_TEMPLATE/**, .github/PULL_REQUEST_TEMPLATE*). [] : every pull request waits for a plan."`
	PlanSource    string   `yaml:"plan_source,omitempty" doc:"Which plan runs count: artifact (the default) trusts runs of the plan workflows on the pull request; dispatch makes planwarden dispatch the first plan workflow itself on the default branch at every push, with the pull request's number and head SHA as inputs, and only those runs count." enum:"artifact,dispatch"`
	ApprovingBots []string `yaml:"approving_bots,omitempty" doc:"Bot logins (renovate[bot]) whose override labels and commands count like a person's. Labels and commands of any other bot or App never count as an approval; github-actions[bot] acts for whoever triggered a workflow and cannot be listed."`
	// CheckPerProject asks for one more check run per project.
	CheckPerProject bool `yaml:"check_per_project,omitempty" doc:"Also publish one check run per project, named planwarden/<project>, so branch protection can require projects one by one."`
	// MinimizeOutdated is nil for the default (true).
	MinimizeOutdated *bool                `yaml:"minimize_outdated,omitempty" doc:"Minimize (hide as outdated) planwarden's older command replies on a pull request once a newer reply supersedes them. Default: true."`
	Pricing          PricingConfig        `yaml:"pricing,omitempty" doc:"What you pay instead of list prices: your price per SKU, discounts by SKU pattern or cloud. Figures then read your price; the JSON report keeps list prices beside them."`
	CostAllocation   CostAllocationConfig `yaml:"cost_allocation,omitempty" doc:"How GPUs and hourly cost are rolled up by cost center across the projects of a pull request: the tags that name it and a monthly budget per tag value."`
	Comment          CommentConfig        `yaml:"comment,omitempty" doc:"What the comment, the check run and the JSON report show of plan values."`
	// DriftWorkflows are the scheduled plan workflows of the default branch.
	DriftWorkflows []string `yaml:"drift_workflows,omitempty" doc:"Workflow files, as paths from the repo root, whose runs plan the default branch on a schedule to find drift (changes made outside Terraform); only their runs on the default branch count. planwarden keeps one issue per project with the drift's review: opened on the first drift, edited while it lasts, closed when a run finds none. Default: none." pattern:"^\\.github/workflows/[A-Za-z0-9._-]+\\.ya?ml$"`

	file   string
	envs   map[string]EnvironmentConfig // built-in entries merged with Environments
	custom []*customRule
}

// ProjectConfig is one Terraform project of the repo.
type ProjectConfig struct {
	Name        string   `yaml:"name" doc:"Project name, as reviews and comments show it." required:"true"`
	Directory   string   `yaml:"directory,omitempty" doc:"Directory of the root module, relative to the repo root."`
	Environment string   `yaml:"environment,omitempty" doc:"Environment the project deploys to (a key of environments, or prod or staging)."`
	Artifact    string   `yaml:"artifact,omitempty" doc:"Name of the workflow artifact holding the project's plan JSON; must start with planwarden. Default: planwarden-<name>."`
	Paths       []string `yaml:"paths,omitempty" doc:"Globs (** for any depth) of the repo files that belong to the project: a pull request that changes one needs the project's plan (missing-plan). The local modules the project's root module calls count too, as its plans show them. Default: everything under directory (the whole repo when directory is empty)."`
}

// EnvironmentConfig is what the config says about one environment.
type EnvironmentConfig struct {
	Protected       bool     `yaml:"protected,omitempty" doc:"Protected environments get the strictest severities (endpoint-replacement blocks) and cannot be destroyed by /destroy-staging."`
	AllowedSKUs     []string `yaml:"allowed_skus,omitempty" doc:"SKUs that may be used in this environment; shell patterns such as Standard_NC* are allowed. Empty: rules.allowed-skus.skus, else no restriction."`
	DestroyWorkflow string   `yaml:"destroy_workflow,omitempty" doc:"Workflow file (for example destroy-staging.yml) that /destroy-staging dispatches for this environment. Empty: /destroy-staging refuses the environment."`
	ConfirmBy       string   `yaml:"confirm_by,omitempty" doc:"Who may confirm /destroy-staging here: anyone with write access, the requester included (any, the default), or only someone other than the requester (other)." enum:"any,other"`
}

// Who may confirm a /destroy-staging (EnvironmentConfig.ConfirmBy).
const (
	ConfirmByAny   = "any"
	ConfirmByOther = "other"
)

// MinimizesOutdated reports whether older command replies are minimized
// when a newer one supersedes them (minimize_outdated, default true).
func (c *Config) MinimizesOutdated() bool { return c.MinimizeOutdated == nil || *c.MinimizeOutdated }

// ConfirmByOther reports whether a /destroy-staging in env must be
// confirmed by someone other than the requester.
func (c *Config) ConfirmByOther(env string) bool {
	return c.environments()[env].ConfirmBy == ConfirmByOther
}

// OverridePolicy says who may override the blocking findings of a rule.
// Anyone matching any list may: a user by login, a member of a team, or
// anyone who can put a label on the pull request.
type OverridePolicy struct {
	Users        []string `yaml:"users,omitempty" doc:"GitHub logins that may override."`
	Teams        []string `yaml:"teams,omitempty" doc:"Teams (org/team-slug) whose members may override."`
	Labels       []string `yaml:"labels,omitempty" doc:"Pull request labels that override when present."`
	Environments []string `yaml:"environments,omitempty" doc:"Environments the policy applies to. Empty: every environment."`
	AllowAuthor  bool     `yaml:"allow_author,omitempty" doc:"Whether the pull request's author may override its findings (never plan-workflow-changed). Default: false."`
	Approvals    int      `yaml:"approvals,omitempty" doc:"How many different people must override a finding before it passes. Default: 1." min:"1"`
}

// RuleSettings holds the settings of each built-in rule, by rule id.
type RuleSettings struct {
	GPUSKULoss          RuleSetting         `yaml:"gpu-sku-loss,omitempty" doc:"A compute resource goes from a GPU SKU to a non-GPU SKU. Default: block."`
	GPUPoolSKU          RuleSetting         `yaml:"gpu-pool-sku,omitempty" doc:"A pool or VM that declares itself GPU (name, labels, taints, tags) gets a non-GPU SKU. Default: block."`
	GPUPoolTaint        RuleSetting         `yaml:"gpu-pool-taint,omitempty" doc:"A GPU node pool has no NoSchedule taint. Default: warn."`
	RequiredTags        RequiredTagsSetting `yaml:"required-tags,omitempty" doc:"A GPU resource lacks a required tag. Default: block."`
	EndpointReplacement TypesSetting        `yaml:"endpoint-replacement,omitempty" doc:"A serving endpoint is destroyed and recreated. Default: block in protected environments, warn elsewhere."`
	CostIncrease        CostSetting         `yaml:"cost-increase,omitempty" doc:"The hourly (or max-scale hourly) cost of a resource rises over a threshold. Default: warn or block by threshold."`
	UnpricedSKU         RuleSetting         `yaml:"unpriced-sku,omitempty" doc:"A SKU is not in the price catalog, so its cost cannot be checked. Default: warn."`
	AllowedSKUs         AllowedSKUsSetting  `yaml:"allowed-skus,omitempty" doc:"A SKU is outside the environment's allow-list. Default: block, only where an allow-list is configured."`
	IAMAdmin            RuleSetting         `yaml:"iam-admin,omitempty" doc:"A role gets AdministratorAccess or an Allow of * on *. Default: block."`
	StatefulDelete      TypesSetting        `yaml:"stateful-delete,omitempty" doc:"A bucket, storage account, database or disk is deleted or replaced. Default: block."`
	RetiredSKU          RuleSetting         `yaml:"retired-sku,omitempty" doc:"A resource is created on, or moved to, a SKU its vendor has retired. Default: warn."`
	ActionInvocation    RuleSetting         `yaml:"action-invocation,omitempty" doc:"The apply runs a provider action (Terraform 1.14+ action_invocations). Default: warn; block is a sensible choice for protected environments."`
	GPUCapacityGap      RuleSetting         `yaml:"gpu-capacity-gap,omitempty" doc:"GPU capacity is deleted before its replacement exists (a GPU pool replaced delete-first, or deleted while another is created). Default: block in protected environments, warn elsewhere."`
	GPUIncrease         GPUIncreaseSetting  `yaml:"gpu-increase,omitempty" doc:"The GPUs of a resource, or of a project, grow by more than a threshold at the expected or the maximum scale. Default: warn above 8 GPUs; block above 64 in protected environments (warn elsewhere)."`
	SKUUnknown          RuleSetting         `yaml:"sku-unknown,omitempty" doc:"A SKU is known only after apply on a resource that had GPUs, on a pool or VM that declares itself GPU, or where an allow-list applies, so the GPU rules and allowed-skus cannot judge it. Default: block in protected environments, warn elsewhere."`
}

// GPUIncreaseSetting configures gpu-increase: GPUs (accelerators) added at
// the expected or the maximum scale.
type GPUIncreaseSetting struct {
	RuleSetting `yaml:",inline"`
	Warn        *float64 `yaml:"warn,omitempty" doc:"Warn when more than this many GPUs are added. Default: 8 (one 8-GPU node)." min:"0"`
	Block       *float64 `yaml:"block,omitempty" doc:"Block, in protected environments, when more than this many GPUs are added (elsewhere: warn). Default: 64 (eight 8-GPU nodes)." min:"0"`
}

// CostAllocationConfig says how the roll-up by cost center reads a
// resource's cost center, and the monthly budget of each.
type CostAllocationConfig struct {
	Tags          []string                    `yaml:"tags,omitempty" doc:"Tag (or label) keys that name a resource's cost center, the first present wins. Default: [cost-center]."`
	MonthlyBudget map[string]BudgetThresholds `yaml:"monthly_budget,omitempty" doc:"By cost center (a value of the tags; (untagged) for resources with none): USD per month its priced resources may cost, across every project of the pull request, after a change that raises it (730 hours a month). Findings are cost-increase's." keys:"cost-center"`
}

// DefaultCostCenterTag is the tag the roll-up by cost center reads when
// the config names none.
const DefaultCostCenterTag = "cost-center"

// CostCenterTags returns the tag keys that name a resource's cost center:
// cost_allocation.tags, else DefaultCostCenterTag.
func (c *Config) CostCenterTags() []string {
	if c != nil && len(c.CostAllocation.Tags) > 0 {
		return c.CostAllocation.Tags
	}
	return []string{DefaultCostCenterTag}
}

// RuleSetting changes the severity of a rule's findings: everywhere, or in
// named environments. SeverityOff turns the rule off.
type RuleSetting struct {
	Severity     Severity            `yaml:"severity,omitempty" doc:"Severity of the rule's findings; off turns the rule off." enum:"block,warn,info,off"`
	Environments map[string]Severity `yaml:"environments,omitempty" doc:"Severity by environment name; wins over severity." enum:"block,warn,info,off" keys:"environment"`
}

// RequiredTagsSetting configures required-tags.
type RequiredTagsSetting struct {
	RuleSetting `yaml:",inline"`
	Tags        []string `yaml:"tags,omitempty" doc:"Tags every GPU resource must carry. Default: [cost-center]."`
}

// TypesSetting configures a rule that applies to a set of resource types.
type TypesSetting struct {
	RuleSetting `yaml:",inline"`
	ExtraTypes  []string `yaml:"extra_types,omitempty" doc:"More Terraform resource types the rule applies to, besides the built-in ones."`
}

// AllowedSKUsSetting configures allowed-skus.
type AllowedSKUsSetting struct {
	RuleSetting `yaml:",inline"`
	SKUs        []string `yaml:"skus,omitempty" doc:"SKUs allowed in environments without their own allowed_skus; shell patterns allowed."`
}

// CostSetting configures cost-increase. A resource whose hourly cost rises
// by more than a block threshold gets a blocking finding, by more than a
// warn threshold a warning.
type CostSetting struct {
	RuleSetting    `yaml:",inline"`
	HourlyDelta    Thresholds `yaml:"hourly_delta,omitempty" doc:"USD per hour added at the expected scale. Default: warn 25 (about one 8-GPU A100 node), block 100 (about two 8-GPU H100 nodes, $73,000 a month)."`
	MaxHourlyDelta Thresholds `yaml:"max_hourly_delta,omitempty" doc:"USD per hour added at the maximum autoscaling scale. Default: warn 100, block 1000."`
	// Percent and MonthlyBudget judge the project as a whole.
	Percent       PercentThresholds           `yaml:"percent,omitempty" doc:"Percent of the project's hourly cost before the change that the change adds, at the expected scale. Default: none."`
	MonthlyBudget map[string]BudgetThresholds `yaml:"monthly_budget,omitempty" doc:"By environment: USD per month the project may cost after a change that raises it, at the expected scale (730 hours a month). Default: none." keys:"environment"`
}

// PercentThresholds are levels in percent; nil means none.
type PercentThresholds struct {
	Warn  *float64 `yaml:"warn,omitempty" doc:"Warn when the change adds more than this percent." min:"0"`
	Block *float64 `yaml:"block,omitempty" doc:"Block when the change adds more than this percent." min:"0"`
}

// BudgetThresholds are monthly USD levels; nil means none.
type BudgetThresholds struct {
	Warn  *float64 `yaml:"warn,omitempty" doc:"Warn when the project costs more than this many USD per month after the change." min:"0"`
	Block *float64 `yaml:"block,omitempty" doc:"Block when the project costs more than this many USD per month after the change." min:"0"`
}

// Thresholds are USD-per-hour levels; nil means the default.
type Thresholds struct {
	Warn  *float64 `yaml:"warn,omitempty" doc:"Warn above this many USD per hour." min:"0"`
	Block *float64 `yaml:"block,omitempty" doc:"Block above this many USD per hour." min:"0"`
}

// CustomRule is a rule written in the config: when the CEL expression When
// is true for a change, the rule reports Message at Severity.
type CustomRule struct {
	ID           string              `yaml:"id" doc:"Rule id, lower-case words joined by -; must not be a built-in id." required:"true" pattern:"^[a-z0-9]+(-[a-z0-9]+)*$"`
	When         string              `yaml:"when" doc:"CEL expression over change and project that is true when the rule fires." required:"true"`
	Severity     Severity            `yaml:"severity,omitempty" doc:"Severity of the findings. Default: warn." enum:"block,warn,info,off"`
	Message      string              `yaml:"message" doc:"What the reviewer reads; {address}, {type}, {action}, {name}, {sku}, {project} and {environment} are filled in." required:"true"`
	Remedy       string              `yaml:"remedy,omitempty" doc:"How to fix it."`
	Environments map[string]Severity `yaml:"environments,omitempty" doc:"Severity by environment name; wins over severity." enum:"block,warn,info,off" keys:"environment"`
}

// SeverityOff in a config turns a rule off. Findings never carry it.
const SeverityOff Severity = "off"

var defaultEnvironments = map[string]EnvironmentConfig{
	"prod":    {Protected: true},
	"staging": {DestroyWorkflow: DefaultDestroyWorkflow},
}

// DefaultConfig is the configuration that applies when a repo has none:
// every built-in rule at its default severity, `prod` protected, `staging`
// destroyable with DefaultDestroyWorkflow, no projects, no one allowed to
// override.
func DefaultConfig() *Config {
	c := &Config{Version: ConfigVersion}
	c.finish()
	return c
}

// finish computes the derived state of a decoded, valid config.
func (c *Config) finish() { c.envs = c.mergedEnvironments() }

// mergedEnvironments is the built-in environments with the declared ones
// in their place.
func (c *Config) mergedEnvironments() map[string]EnvironmentConfig {
	envs := make(map[string]EnvironmentConfig, len(defaultEnvironments)+len(c.Environments))
	for n, e := range defaultEnvironments {
		envs[n] = e
	}
	for n, e := range c.Environments {
		envs[n] = e
	}
	return envs
}

// environments returns the merged environments, also for a Config built
// by hand rather than by ParseConfig or DefaultConfig.
func (c *Config) environments() map[string]EnvironmentConfig {
	if c.envs != nil {
		return c.envs
	}
	return c.mergedEnvironments()
}

// File is the name the config was parsed from, or "" for DefaultConfig.
func (c *Config) File() string { return c.file }

// Project returns the declared project of that name, else the one whose
// directory is name (a Terragrunt unit named by its directory), or ends
// in it when only one does.
func (c *Config) Project(name string) (ProjectConfig, bool) {
	for _, p := range c.Projects {
		if p.Name == name {
			return p, true
		}
	}
	return c.projectInDirectory(name) // units.go
}

// DefaultPlanWorkflow is the plan workflow of a config that names none.
const DefaultPlanWorkflow = ".github/workflows/planwarden-plan.yml"

// PlanWorkflowPaths returns the workflow files whose runs make the plans:
// plan_workflows, else DefaultPlanWorkflow.
func (c *Config) PlanWorkflowPaths() []string {
	if len(c.PlanWorkflows) > 0 {
		return c.PlanWorkflows
	}
	return []string{DefaultPlanWorkflow}
}

// IsDriftWorkflow reports whether path (as GitHub names a run's workflow)
// is one of drift_workflows; a run counts only on the default branch, which
// the caller checks.
func (c *Config) IsDriftWorkflow(path string) bool {
	return slices.Contains(c.DriftWorkflows, path)
}

// IsPlanWorkflow reports whether path (as GitHub names a run's workflow,
// .github/workflows/x.yml) is one of PlanWorkflowPaths. Paths compare
// exactly: GitHub's paths are case-sensitive.
func (c *Config) IsPlanWorkflow(path string) bool {
	return slices.Contains(c.PlanWorkflowPaths(), path)
}

// ProjectPaths returns the globs of the files that belong to a declared
// project: its paths, else everything under its directory.
func (p ProjectConfig) ProjectPaths() []string {
	if len(p.Paths) > 0 {
		return p.Paths
	}
	d := strings.Trim(path.Clean("/"+p.Directory), "/")
	if d == "" {
		return []string{"**"}
	}
	return []string{d + "/**"}
}

// EnvironmentOf returns the environment the config gives a project, or ""
// when the project is not declared or names none.
func (c *Config) EnvironmentOf(project string) string {
	p, _ := c.Project(project)
	return p.Environment
}

// PlanArtifact returns the name of the workflow artifact that holds the
// project's plan: the declared artifact, else planwarden-<name>.
func (c *Config) PlanArtifact(project string) string {
	if p, ok := c.Project(project); ok && p.Artifact != "" {
		return p.Artifact
	}
	return "planwarden-" + project
}

// ProjectForArtifact returns the declared project whose plan artifact has
// that name (see PlanArtifact).
func (c *Config) ProjectForArtifact(artifact string) (ProjectConfig, bool) {
	for _, p := range c.Projects {
		if c.PlanArtifact(p.Name) == artifact {
			return p, true
		}
	}
	return ProjectConfig{}, false
}

// EnvironmentNames returns the names of every known environment (built-in and
// declared), sorted.
func (c *Config) EnvironmentNames() []string {
	envs := c.environments()
	names := make([]string, 0, len(envs))
	for n := range envs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Environment returns what the config says about an environment, built-in
// entries included, and whether it knows the environment at all.
func (c *Config) Environment(name string) (EnvironmentConfig, bool) {
	e, ok := c.environments()[name]
	return e, ok
}

// IsProtected reports whether an environment is protected. By default only
// `prod` is; an unknown environment is not.
func (c *Config) IsProtected(env string) bool { return c.environments()[env].Protected }

// DestroyWorkflow returns the workflow `/destroy-staging` dispatches for an
// environment, and false when the command must refuse it: the environment
// is unknown, protected, or has no destroy_workflow. By default only
// `staging` may be destroyed, with DefaultDestroyWorkflow.
func (c *Config) DestroyWorkflow(env string) (string, bool) {
	e, ok := c.environments()[env]
	if !ok || e.Protected || e.DestroyWorkflow == "" {
		return "", false
	}
	return e.DestroyWorkflow, true
}

// AllowedSKUs returns the allow-list of an environment (its own, else
// rules.allowed-skus.skus), or nil when any SKU is allowed.
func (c *Config) AllowedSKUs(env string) []string {
	if l := c.environments()[env].AllowedSKUs; len(l) > 0 {
		return l
	}
	if len(c.Rules.AllowedSKUs.SKUs) > 0 {
		return c.Rules.AllowedSKUs.SKUs
	}
	return nil
}

// skuAllowed reports whether sku matches an entry of list, case-insensitively.
func skuAllowed(list []string, sku string) bool {
	s := strings.ToLower(sku)
	for _, p := range list {
		if ok, _ := path.Match(strings.ToLower(p), s); ok {
			return true
		}
	}
	return false
}

// Overridable reports whether findings of a rule may be overridden at
// all. plan-errored may not (an incomplete plan never passes), nor
// unknown-project and missing-plan (fix the config or the workflow).
func (c *Config) Overridable(rule string) bool {
	return rule != RulePlanErrored && rule != RuleUnknownProject && rule != RuleMissingPlan
}

// MayOverride reports whether someone may override the blocking findings of
// rule in env: the user is listed (logins compare case-insensitively), or
// is in a listed team (teams as org/slug), or the pull request carries a
// listed label, in the policy for the rule or the policy for "*", when the
// policy's environments include env (or name none). With no policy no one
// may override; plan-errored is never overridable.
func (c *Config) MayOverride(rule, env, user string, teams, labels []string) bool {
	if !c.Overridable(rule) {
		return false
	}
	for _, key := range []string{rule, "*"} {
		p, ok := c.Overrides[key]
		if !ok {
			continue
		}
		if len(p.Environments) > 0 && !slices.Contains(p.Environments, env) {
			continue
		}
		if u := strings.TrimPrefix(user, "@"); u != "" && containsFold(p.Users, u) {
			return true
		}
		for _, t := range teams {
			if containsFold(p.Teams, t) {
				return true
			}
		}
		for _, l := range labels {
			if containsFold(p.Labels, l) {
				return true
			}
		}
	}
	return false
}

// Overriders returns who may override the blocking findings of rule in
// env: the users, teams and labels of the rule's policy and of "*" that
// apply to env, without duplicates; all empty when no one may. It says
// nothing about plan-errored, which no one may override (see Overridable).
func (c *Config) Overriders(rule, env string) (users, teams, labels []string) {
	for _, key := range []string{rule, "*"} {
		p, ok := c.Overrides[key]
		if !ok || len(p.Environments) > 0 && !slices.Contains(p.Environments, env) {
			continue
		}
		users = appendNew(users, p.Users...)
		teams = appendNew(teams, p.Teams...)
		labels = appendNew(labels, p.Labels...)
	}
	return users, teams, labels
}

func appendNew(l []string, add ...string) []string {
	for _, a := range add {
		if !containsFold(l, a) {
			l = append(l, a)
		}
	}
	return l
}

func containsFold(l []string, s string) bool {
	for _, e := range l {
		if strings.EqualFold(e, s) {
			return true
		}
	}
	return false
}

// requiredTags returns the tags required-tags checks.
func (c *Config) requiredTags() []string {
	if c.Rules.RequiredTags.Tags != nil {
		return c.Rules.RequiredTags.Tags
	}
	return []string{"cost-center"}
}

// Default cost-increase thresholds, USD per hour.
const (
	defaultHourlyWarn     = 25
	defaultHourlyBlock    = 100
	defaultMaxHourlyWarn  = 100
	defaultMaxHourlyBlock = 1000
)

func orDefault(p *float64, d float64) float64 {
	if p != nil {
		return *p
	}
	return d
}

// byID returns the severity settings of every built-in rule, by id.
func (r *RuleSettings) byID() map[string]*RuleSetting {
	return map[string]*RuleSetting{
		RuleGPUSKULoss:          &r.GPUSKULoss,
		RuleGPUPoolSKU:          &r.GPUPoolSKU,
		RuleGPUPoolTaint:        &r.GPUPoolTaint,
		RuleRequiredTags:        &r.RequiredTags.RuleSetting,
		RuleEndpointReplacement: &r.EndpointReplacement.RuleSetting,
		RuleCostIncrease:        &r.CostIncrease.RuleSetting,
		RuleUnpricedSKU:         &r.UnpricedSKU,
		RuleAllowedSKUs:         &r.AllowedSKUs.RuleSetting,
		RuleIAMAdmin:            &r.IAMAdmin,
		RuleStatefulDelete:      &r.StatefulDelete.RuleSetting,
		RuleRetiredSKU:          &r.RetiredSKU,
		RuleActionInvocation:    &r.ActionInvocation,
		RuleGPUCapacityGap:      &r.GPUCapacityGap,
		RuleGPUIncrease:         &r.GPUIncrease.RuleSetting,
		RuleSKUUnknown:          &r.SKUUnknown,
	}
}

// severityFor applies a setting to a finding's default severity in env.
func (s *RuleSetting) severityFor(env string, def Severity) Severity {
	if s == nil {
		return def
	}
	if v, ok := s.Environments[env]; ok && v != "" {
		return v
	}
	if s.Severity != "" {
		return s.Severity
	}
	return def
}
