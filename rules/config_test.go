package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/infra"
)

// everyKey uses every key the config format has (TestEveryKeyIsCovered
// keeps it so).
const everyKey = `# planwarden repo config
version: 1
projects:
  - name: aks-gpu
    directory: examples/aks-gpu
    environment: prod
    artifact: planwarden-aks-gpu
    paths: [examples/aks-gpu/**, "modules/gpu/*.tf"]
  - name: sagemaker
    directory: examples/sagemaker
    environment: staging
environments:
  prod:
    protected: true
    allowed_skus: [Standard_NC24ads_A100_v4, "Standard_D*"]
  staging:
    destroy_workflow: destroy-staging.yml
    confirm_by: other
  dev: {}
check_per_project: true
minimize_outdated: false
rules:
  gpu-sku-loss:
    severity: block
    environments: {dev: warn}
  gpu-pool-sku: {severity: block, environments: {dev: warn}}
  gpu-pool-taint: {severity: block, environments: {dev: info}}
  required-tags:
    severity: block
    environments: {dev: warn}
    tags: [cost-center, owner]
  endpoint-replacement:
    severity: warn
    environments: {prod: block, staging: info}
    extra_types: [kubernetes_manifest]
  cost-increase:
    severity: block
    environments: {dev: warn}
    hourly_delta: {warn: 5, block: 500}
    max_hourly_delta: {warn: 25, block: 2500}
    percent: {warn: 20, block: 100}
    monthly_budget: {prod: {warn: 40000, block: 60000}}
  unpriced-sku: {severity: info, environments: {prod: warn}}
  allowed-skus:
    severity: block
    environments: {dev: off}
    skus: [Standard_D4s_v5]
  iam-admin: {severity: block, environments: {dev: block}}
  stateful-delete:
    severity: block
    environments: {dev: warn}
    extra_types: [aws_sagemaker_feature_group]
  retired-sku: {severity: block, environments: {dev: off}}
  action-invocation: {severity: warn, environments: {prod: block}}
  gpu-capacity-gap: {severity: block, environments: {dev: warn}}
  gpu-increase: {severity: warn, environments: {dev: info}, warn: 16, block: 128}
  sku-unknown: {severity: block, environments: {dev: warn}}
overrides:
  gpu-sku-loss:
    users: [alice, "@Bob"]
    teams: [acme/ml-platform]
    labels: [planwarden/override-gpu]
    environments: [prod, staging]
  "*":
    teams: [acme/sre]
    allow_author: true
    approvals: 2
custom_rules:
  - id: no-h100-in-dev
    when: change.sku.gpu_model.contains("H100") && project.environment == "dev"
    severity: block
    message: "{address} uses an H100 ({sku}) in {environment}"
    remedy: Use an A100 in dev.
    environments: {staging: warn}
plan_workflows: [.github/workflows/planwarden-plan.yml, .github/workflows/plan-sagemaker.yaml]
plan_workflow_inputs: ["scripts/plan/**", Makefile]
drift_workflows: [.github/workflows/planwarden-drift.yml]
no_plan_paths: ["docs/**", "apps/web/**"]
plan_source: dispatch
approving_bots: ["renovate[bot]"]
pricing:
  prices:
    Standard_NC24ads_A100_v4: 2.90
  discounts:
    - {sku: "Standard_NC*", discount: 0.35}
    - {cloud: azure, discount: 0.28}
    - {sku: "p5.*", capacity: spot, discount: 0.6}
  spot_prices:
    Standard_NC24ads_A100_v4: 1.10
cost_allocation:
  tags: [cost-center, team]
  monthly_budget:
    ml-research: {warn: 50000, block: 80000}
    (untagged): {warn: 1000}
comment:
  show_text: [aws_ssm_document, module.bootstrap.*]
`

func TestEveryKey(t *testing.T) {
	t.Parallel()
	c := mustConfig(t, everyKey)
	f := func(v float64) *float64 { return &v }
	want := &Config{
		Version: 1,
		Projects: []ProjectConfig{
			{Name: "aks-gpu", Directory: "examples/aks-gpu", Environment: "prod", Artifact: "planwarden-aks-gpu", Paths: []string{"examples/aks-gpu/**", "modules/gpu/*.tf"}},
			{Name: "sagemaker", Directory: "examples/sagemaker", Environment: "staging"},
		},
		Environments: map[string]EnvironmentConfig{
			"prod":    {Protected: true, AllowedSKUs: []string{"Standard_NC24ads_A100_v4", "Standard_D*"}},
			"staging": {DestroyWorkflow: "destroy-staging.yml", ConfirmBy: ConfirmByOther},
			"dev":     {},
		},
		CheckPerProject:  true,
		MinimizeOutdated: new(false),
		Rules: RuleSettings{
			GPUSKULoss:          RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}},
			GPUPoolSKU:          RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}},
			GPUPoolTaint:        RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityInfo}},
			RequiredTags:        RequiredTagsSetting{RuleSetting: RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}}, Tags: []string{"cost-center", "owner"}},
			EndpointReplacement: TypesSetting{RuleSetting: RuleSetting{Severity: SeverityWarn, Environments: map[string]Severity{"prod": SeverityBlock, "staging": SeverityInfo}}, ExtraTypes: []string{"kubernetes_manifest"}},
			CostIncrease: CostSetting{RuleSetting: RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}},
				HourlyDelta: Thresholds{Warn: f(5), Block: f(500)}, MaxHourlyDelta: Thresholds{Warn: f(25), Block: f(2500)},
				Percent: PercentThresholds{Warn: f(20), Block: f(100)}, MonthlyBudget: map[string]BudgetThresholds{"prod": {Warn: f(40000), Block: f(60000)}}},
			UnpricedSKU:      RuleSetting{Severity: SeverityInfo, Environments: map[string]Severity{"prod": SeverityWarn}},
			AllowedSKUs:      AllowedSKUsSetting{RuleSetting: RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityOff}}, SKUs: []string{"Standard_D4s_v5"}},
			IAMAdmin:         RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityBlock}},
			StatefulDelete:   TypesSetting{RuleSetting: RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}}, ExtraTypes: []string{"aws_sagemaker_feature_group"}},
			RetiredSKU:       RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityOff}},
			ActionInvocation: RuleSetting{Severity: SeverityWarn, Environments: map[string]Severity{"prod": SeverityBlock}},
			GPUCapacityGap:   RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}},
			GPUIncrease: GPUIncreaseSetting{RuleSetting: RuleSetting{Severity: SeverityWarn, Environments: map[string]Severity{"dev": SeverityInfo}},
				Warn: f(16), Block: f(128)},
			SKUUnknown: RuleSetting{Severity: SeverityBlock, Environments: map[string]Severity{"dev": SeverityWarn}},
		},
		Overrides: map[string]OverridePolicy{
			"gpu-sku-loss": {Users: []string{"alice", "Bob"}, Teams: []string{"acme/ml-platform"}, Labels: []string{"planwarden/override-gpu"}, Environments: []string{"prod", "staging"}},
			"*":            {Teams: []string{"acme/sre"}, AllowAuthor: true, Approvals: 2},
		},
		CustomRules: []CustomRule{{
			ID: "no-h100-in-dev", When: `change.sku.gpu_model.contains("H100") && project.environment == "dev"`, Severity: SeverityBlock,
			Message: "{address} uses an H100 ({sku}) in {environment}", Remedy: "Use an A100 in dev.", Environments: map[string]Severity{"staging": SeverityWarn},
		}},
		PlanWorkflows:      []string{".github/workflows/planwarden-plan.yml", ".github/workflows/plan-sagemaker.yaml"},
		PlanWorkflowInputs: []string{"scripts/plan/**", "Makefile"},
		DriftWorkflows:     []string{".github/workflows/planwarden-drift.yml"},
		NoPlanPaths:        []string{"docs/**", "apps/web/**"},
		PlanSource:         PlanSourceDispatch,
		ApprovingBots:      []string{"renovate[bot]"},
		Pricing: PricingConfig{Prices: map[string]float64{"Standard_NC24ads_A100_v4": 2.90},
			Discounts:  []DiscountConfig{{SKU: "Standard_NC*", Discount: 0.35}, {Cloud: "azure", Discount: 0.28}, {SKU: "p5.*", Capacity: "spot", Discount: 0.6}},
			SpotPrices: map[string]float64{"Standard_NC24ads_A100_v4": 1.10}},
		CostAllocation: CostAllocationConfig{Tags: []string{"cost-center", "team"},
			MonthlyBudget: map[string]BudgetThresholds{"ml-research": {Warn: f(50000), Block: f(80000)}, "(untagged)": {Warn: f(1000)}}},
		Comment: CommentConfig{ShowText: []string{"aws_ssm_document", "module.bootstrap.*"}},
	}
	if diff := cmp.Diff(want, c, cmpopts.IgnoreUnexported(Config{})); diff != "" {
		t.Errorf("decoded config (-want +got):\n%s", diff)
	}

	// What the app and the CLI read of it.
	checks := map[string]struct{ got, want any }{
		"file":                           {c.File(), "planwarden.yml"},
		"plan workflows":                 {c.PlanWorkflowPaths(), []string{".github/workflows/planwarden-plan.yml", ".github/workflows/plan-sagemaker.yaml"}},
		"a plan workflow":                {c.IsPlanWorkflow(".github/workflows/plan-sagemaker.yaml"), true},
		"another workflow is not":        {c.IsPlanWorkflow(".github/workflows/planwarden-plan-evil.yml"), false},
		"paths of aks-gpu":               {c.Projects[0].ProjectPaths(), []string{"examples/aks-gpu/**", "modules/gpu/*.tf"}},
		"paths default to the directory": {c.Projects[1].ProjectPaths(), []string{"examples/sagemaker/**"}},
		"environment of aks-gpu":         {c.EnvironmentOf("aks-gpu"), "prod"},
		"environment of unknown":         {c.EnvironmentOf("nope"), ""},
		"artifact of aks-gpu":            {c.PlanArtifact("aks-gpu"), "planwarden-aks-gpu"},
		"default artifact of sagemaker":  {c.PlanArtifact("sagemaker"), "planwarden-sagemaker"},
		"project for artifact":           {projectName(c.ProjectForArtifact("planwarden-sagemaker")), "sagemaker"},
		"environments":                   {c.EnvironmentNames(), []string{"dev", "prod", "staging"}},
		"prod protected":                 {c.IsProtected("prod"), true},
		"staging not protected":          {c.IsProtected("staging"), false},
		"staging destroy workflow":       {workflow(c.DestroyWorkflow("staging")), "destroy-staging.yml"},
		"prod cannot be destroyed":       {workflow(c.DestroyWorkflow("prod")), "refused"},
		"dev cannot be destroyed":        {workflow(c.DestroyWorkflow("dev")), "refused"},
		"prod allow-list":                {c.AllowedSKUs("prod"), []string{"Standard_NC24ads_A100_v4", "Standard_D*"}},
		"dev falls back to rules list":   {c.AllowedSKUs("dev"), []string{"Standard_D4s_v5"}},
		"alice may override in prod":     {c.MayOverride(RuleGPUSKULoss, "prod", "alice", nil, nil), true},
		"bob, any case, without the @":   {c.MayOverride(RuleGPUSKULoss, "prod", "bob", nil, nil), true},
		"alice may not in dev":           {c.MayOverride(RuleGPUSKULoss, "dev", "alice", nil, nil), false},
		"alice may not override iam":     {c.MayOverride(RuleIAMAdmin, "prod", "alice", nil, nil), false},
		"team member may":                {c.MayOverride(RuleGPUSKULoss, "prod", "carol", []string{"acme/ML-Platform"}, nil), true},
		"label may":                      {c.MayOverride(RuleGPUSKULoss, "staging", "", nil, []string{"planwarden/override-gpu"}), true},
		"sre may override any rule":      {c.MayOverride(RuleIAMAdmin, "dev", "dave", []string{"acme/sre"}, nil), true},
		"nobody overrides plan-errored":  {c.MayOverride(RulePlanErrored, "dev", "dave", []string{"acme/sre"}, nil), false},
		"stranger may not":               {c.MayOverride(RuleGPUSKULoss, "prod", "mallory", []string{"acme/web"}, []string{"lgtm"}), false},
		"who may override in prod":       {overriders(c, RuleGPUSKULoss, "prod"), [][]string{{"alice", "Bob"}, {"acme/ml-platform", "acme/sre"}, {"planwarden/override-gpu"}}},
		"who may override in dev":        {overriders(c, RuleGPUSKULoss, "dev"), [][]string{nil, {"acme/sre"}, nil}},
		"replies are not minimized":      {c.MinimizesOutdated(), false},
		"staging confirmed by another":   {c.ConfirmByOther("staging"), true},
		"dev has no confirm_by":          {c.ConfirmByOther("dev"), false},
	}
	for name, ch := range checks {
		if diff := cmp.Diff(ch.want, ch.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func overriders(c *Config, rule, env string) [][]string {
	u, t, l := c.Overriders(rule, env)
	return [][]string{u, t, l}
}

func projectName(p ProjectConfig, ok bool) string {
	if !ok {
		return "none"
	}
	return p.Name
}

func workflow(w string, ok bool) string {
	if !ok {
		return "refused"
	}
	return w
}

// TestEveryKeyIsCovered fails when a key is added to the config types
// without being used in everyKey (and so in TestEveryKey).
func TestEveryKeyIsCovered(t *testing.T) {
	t.Parallel()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(everyKey), &doc); err != nil {
		t.Fatal(err)
	}
	ps := &problems{lines: map[string]int{}}
	ps.walk(doc.Content[0], reflect.TypeOf(Config{}), "", "")
	seen := map[string]bool{}
	for p := range ps.lines {
		seen[generalize(p)] = true
	}
	var missing []string
	for _, p := range keyPaths(reflect.TypeOf(Config{}), "") {
		if !seen[p] {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("everyKey does not use these keys: %s", strings.Join(missing, ", "))
	}
}

// generalize turns a concrete key path into the type's path: list
// indexes become [], map keys of known maps become *.
func generalize(p string) string {
	var out []string
	parts := strings.Split(strings.NewReplacer("[", ".[").Replace(p), ".")
	for i := 0; i < len(parts); i++ {
		seg := parts[i]
		if strings.HasPrefix(seg, "[") {
			out = append(out, "[]")
			continue
		}
		out = append(out, seg)
		switch seg {
		case "environments", "overrides", "monthly_budget":
			if i+1 < len(parts) && !strings.HasPrefix(parts[i+1], "[") {
				out = append(out, "*")
				i++
			}
		}
	}
	return strings.ReplaceAll(strings.Join(out, "."), ".[]", "[]")
}

// keyPaths lists every key path of a config type, maps as * and lists as [].
func keyPaths(t reflect.Type, prefix string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	switch t.Kind() {
	case reflect.Struct:
		fields := structFields(t)
		for _, name := range fieldNames(t) {
			p := joinPath(prefix, name)
			out = append(out, p)
			out = append(out, keyPaths(fields[name].Type, p)...)
		}
	case reflect.Map:
		out = append(out, keyPaths(t.Elem(), prefix+".*")...)
	case reflect.Slice:
		out = append(out, keyPaths(t.Elem(), prefix+"[]")...)
	}
	return out
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		yml  string
		want []string
	}{
		"typo of a top-level key": {
			yml:  "version: 1\nenviroments:\n  prod: {}\n",
			want: []string{`planwarden.yml:2: unknown key "enviroments" at the top level; expected one of: version, projects, environments, rules, overrides, custom_rules, plan_workflows, plan_workflow_inputs, no_plan_paths, plan_source, approving_bots, check_per_project, minimize_outdated, pricing, cost_allocation, comment, drift_workflows (did you mean "environments"?)`},
		},
		"typo of plan_workflows": {
			yml:  "version: 1\nplan_workflow: [.github/workflows/plan.yml]\n",
			want: []string{`planwarden.yml:2: unknown key "plan_workflow" at the top level; expected one of: version, projects, environments, rules, overrides, custom_rules, plan_workflows, plan_workflow_inputs, no_plan_paths, plan_source, approving_bots, check_per_project, minimize_outdated, pricing, cost_allocation, comment, drift_workflows (did you mean "plan_workflows"?)`},
		},
		"a plan workflow named by file name only": {
			yml: "version: 1\nplan_workflows: [plan.yml, .github/workflows/plan.yml, .github/workflows/plan.yml]\n",
			want: []string{
				`planwarden.yml:2: plan_workflows[0]: expected a workflow file as a path from the repo root, such as .github/workflows/planwarden-plan.yml, got "plan.yml"`,
				`planwarden.yml:2: plan_workflows[2]: .github/workflows/plan.yml is listed twice (also plan_workflows[1])`,
			},
		},
		"drift workflows: a file name only, twice, a plan workflow": {
			yml: "version: 1\ndrift_workflows: [drift.yml, .github/workflows/drift.yml, .github/workflows/drift.yml, .github/workflows/planwarden-plan.yml]\n",
			want: []string{
				`planwarden.yml:2: drift_workflows[0]: expected a workflow file as a path from the repo root, such as .github/workflows/planwarden-drift.yml, got "drift.yml"`,
				`planwarden.yml:2: drift_workflows[2]: .github/workflows/drift.yml is listed twice (also drift_workflows[1])`,
				`planwarden.yml:2: drift_workflows[3]: .github/workflows/planwarden-plan.yml is a plan workflow too: a drift workflow plans the default branch on a schedule, a plan workflow a pull request`,
			},
		},
		"plan workflow inputs that escape or do not parse": {
			yml: "version: 1\nplan_workflow_inputs: [./plan.sh, \"scripts/[a\", \" \"]\n",
			want: []string{
				`planwarden.yml:2: plan_workflow_inputs[0]: expected a glob relative to the repo root, such as scripts/plan/**, got "./plan.sh"`,
				`planwarden.yml:2: plan_workflow_inputs[1]: expected a glob such as scripts/plan/** (*, ?, [...], {a,b} and ** are allowed), got "scripts/[a"`,
				`planwarden.yml:2: plan_workflow_inputs[2]: expected a glob of repo files such as scripts/plan/**, got an empty string`,
			},
		},
		"project paths that escape or do not parse": {
			yml: "version: 1\nprojects:\n  - name: a\n    paths: [../x/**, \"infra/[a\", \"\"]\n",
			want: []string{
				`planwarden.yml:4: projects[0].paths[0]: expected a glob relative to the repo root, such as infra/gpu/**, got "../x/**"`,
				`planwarden.yml:4: projects[0].paths[1]: expected a glob such as infra/gpu/** (*, ?, [...], {a,b} and ** are allowed), got "infra/[a"`,
				`planwarden.yml:4: projects[0].paths[2]: expected a glob of repo files such as infra/gpu/**, got an empty string`,
			},
		},
		"typo of approvals": {
			yml:  "version: 1\noverrides:\n  iam-admin:\n    users: [alice, bob]\n    aprovals: 2\n",
			want: []string{`planwarden.yml:5: unknown key "aprovals" in overrides.iam-admin; expected one of: users, teams, labels, environments, allow_author, approvals (did you mean "approvals"?)`},
		},
		"more approvals than people who may give them": {
			yml:  "version: 1\noverrides:\n  iam-admin:\n    users: [alice]\n    approvals: 2\n",
			want: []string{`planwarden.yml:5: overrides.iam-admin.approvals: 2 approvals are required but only 1 user(s) and no team may override: no finding could ever pass`},
		},
		"negative approvals, and a label with approvals": {
			yml: "version: 1\noverrides:\n  iam-admin:\n    users: [alice]\n    approvals: -1\n  \"*\":\n    teams: [acme/sre]\n    labels: [ok]\n    approvals: 2\n",
			want: []string{
				`planwarden.yml:5: overrides.iam-admin.approvals: expected how many people must override, at least 1, got -1`,
				`planwarden.yml:9: overrides.*.approvals: a label is one approval by whoever added it; labels and approvals above 1 cannot be combined (remove labels, or approvals)`,
			},
		},
		"allow_author is true or false": {
			yml:  "version: 1\noverrides:\n  iam-admin:\n    users: [alice]\n    allow_author: yes please\n",
			want: []string{`planwarden.yml:5: overrides.iam-admin.allow_author: expected true or false, got "yes please"`},
		},
		"overrides of the provenance rules that cannot be overridden": {
			yml: "version: 1\noverrides:\n  unknown-project: {users: [alice]}\n  missing-plan: {users: [alice]}\n  plan-workflow-changed: {users: [alice]}\n",
			want: []string{
				`planwarden.yml:3: overrides.unknown-project: unknown-project cannot be overridden: declare the project under projects, or make the plan workflow upload its plan`,
				`planwarden.yml:4: overrides.missing-plan: missing-plan cannot be overridden: declare the project under projects, or make the plan workflow upload its plan`,
			},
		},
		"typo of a rule id": {
			yml:  "version: 1\nrules:\n  gpu-sku-los:\n    severity: warn\n",
			want: []string{`planwarden.yml:3: unknown key "gpu-sku-los" in rules; expected one of: gpu-sku-loss, gpu-pool-sku, gpu-pool-taint, required-tags, endpoint-replacement, cost-increase, unpriced-sku, allowed-skus, iam-admin, stateful-delete, retired-sku, action-invocation, gpu-capacity-gap, gpu-increase, sku-unknown (did you mean "gpu-sku-loss"?)`},
		},
		"typo of a nested key": {
			yml:  "version: 1\nrules:\n  cost-increase:\n    hourly_delta:\n      wran: 5\n",
			want: []string{`planwarden.yml:5: unknown key "wran" in rules.cost-increase.hourly_delta; expected one of: warn, block (did you mean "warn"?)`},
		},
		"typo in a project": {
			yml:  "version: 1\nprojects:\n  - name: a\n    enviroment: prod\n",
			want: []string{`planwarden.yml:4: unknown key "enviroment" in projects[0]; expected one of: name, directory, environment, artifact, paths (did you mean "environment"?)`},
		},
		"plan-errored cannot be configured": {
			yml:  "version: 1\nrules:\n  plan-errored: {severity: off}\n",
			want: []string{`planwarden.yml:3: unknown key "plan-errored" in rules; expected one of: gpu-sku-loss, gpu-pool-sku, gpu-pool-taint, required-tags, endpoint-replacement, cost-increase, unpriced-sku, allowed-skus, iam-admin, stateful-delete, retired-sku, action-invocation, gpu-capacity-gap, gpu-increase, sku-unknown`},
		},
		"threshold is a string": {
			yml:  "version: 1\nrules:\n  cost-increase:\n    hourly_delta:\n      warn: ten\n",
			want: []string{`planwarden.yml:5: rules.cost-increase.hourly_delta.warn: expected a number, got "ten"`},
		},
		"tags is a string, not a list": {
			yml:  "version: 1\nrules:\n  required-tags:\n    tags: cost-center\n",
			want: []string{`planwarden.yml:4: rules.required-tags.tags: expected a list of strings, got "cost-center"`},
		},
		"protected is not a boolean": {
			yml:  "version: 1\nenvironments:\n  prod:\n    protected: maybe\n",
			want: []string{`planwarden.yml:4: environments.prod.protected: expected true or false, got "maybe"`},
		},
		"projects is a mapping": {
			yml:  "version: 1\nprojects:\n  name: a\n",
			want: []string{`planwarden.yml:3: projects: expected a list of mappings, got a mapping`},
		},
		"version missing": {
			yml:  "projects: []\n",
			want: []string{`planwarden.yml:1: the top level: missing key "version" (Config format version; must be 1.)`},
		},
		"version without a value": {
			yml:  "version:\n",
			want: []string{`planwarden.yml:1: version: expected one of 1, got null`},
		},
		"custom rule id without a value": {
			yml:  "version: 1\ncustom_rules:\n  - id: ~\n    when: \"true\"\n    message: m\n",
			want: []string{`planwarden.yml:3: custom_rules[0].id: expected a string, got null`},
		},
		"version 2": {
			yml:  "version: 2\n",
			want: []string{`planwarden.yml:1: version: "2" is not allowed; expected one of: 1`},
		},
		"version as a string": {
			yml:  "version: \"1\"\n",
			want: []string{`planwarden.yml:1: version: expected one of 1, got "1"`},
		},
		"unknown severity": {
			yml:  "version: 1\nrules:\n  iam-admin:\n    severity: blocker\n",
			want: []string{`planwarden.yml:4: rules.iam-admin.severity: "blocker" is not allowed; expected one of: block, warn, info, off (did you mean "block"?)`},
		},
		"unknown severity per environment": {
			yml:  "version: 1\nrules:\n  iam-admin:\n    environments:\n      prod: loud\n",
			want: []string{`planwarden.yml:5: rules.iam-admin.environments.prod: "loud" is not allowed; expected one of: block, warn, info, off`},
		},
		"unknown environment in a project": {
			yml:  "version: 1\nprojects:\n  - name: a\n    environment: prd\n",
			want: []string{`planwarden.yml:4: projects[0].environment: unknown environment "prd"; expected one of: prod, staging (declare it under environments) (did you mean "prod"?)`},
		},
		"unknown environment in a rule": {
			yml:  "version: 1\nrules:\n  gpu-sku-loss:\n    environments:\n      qa: warn\n",
			want: []string{`planwarden.yml:5: rules.gpu-sku-loss.environments.qa: unknown environment "qa"; expected one of: prod, staging (declare it under environments)`},
		},
		"duplicate project": {
			yml:  "version: 1\nprojects:\n  - name: a\n  - name: a\n",
			want: []string{`planwarden.yml:4: projects[1].name: project "a" is declared twice (also projects[0])`},
		},
		"project without a name": {
			yml:  "version: 1\nprojects:\n  - directory: x\n",
			want: []string{`planwarden.yml:3: projects[0]: missing key "name" (Project name, as reviews and comments show it.)`},
		},
		"artifact the app would not read": {
			yml:  "version: 1\nprojects:\n  - name: a\n    artifact: plan-a\n",
			want: []string{`planwarden.yml:4: projects[0].artifact: expected an artifact name starting with planwarden (the app reads only those), got "plan-a"`},
		},
		"directory outside the repo": {
			yml:  "version: 1\nprojects:\n  - name: a\n    directory: ../other\n",
			want: []string{`planwarden.yml:4: projects[0].directory: expected a directory inside the repo, relative to its root, got "../other"`},
		},
		"protected environment with a destroy workflow": {
			yml:  "version: 1\nenvironments:\n  prod:\n    protected: true\n    destroy_workflow: nuke.yml\n",
			want: []string{`planwarden.yml:5: environments.prod.destroy_workflow: a protected environment cannot be destroyed with /destroy-staging; remove destroy_workflow or protected`},
		},
		"destroy workflow that is not a workflow file": {
			yml:  "version: 1\nenvironments:\n  staging:\n    destroy_workflow: Destroy staging\n",
			want: []string{`planwarden.yml:4: environments.staging.destroy_workflow: expected a workflow file name such as destroy-staging.yml, got "Destroy staging"`},
		},
		"bad SKU pattern": {
			yml:  "version: 1\nenvironments:\n  prod:\n    allowed_skus: [\"Standard_[NC\"]\n",
			want: []string{`planwarden.yml:4: environments.prod.allowed_skus[0]: expected a SKU name or shell pattern, got "Standard_[NC" (syntax error in pattern)`},
		},
		"warn above block": {
			yml:  "version: 1\nrules:\n  cost-increase:\n    hourly_delta: {warn: 100, block: 10}\n",
			want: []string{`planwarden.yml:4: rules.cost-increase.hourly_delta.warn: warn (100) is above block (10); expected warn <= block`},
		},
		"negative threshold": {
			yml:  "version: 1\nrules:\n  cost-increase:\n    max_hourly_delta:\n      block: -1\n",
			want: []string{`planwarden.yml:5: rules.cost-increase.max_hourly_delta.block: expected a number of USD per hour, at least 0, got -1`},
		},
		"extra type that is not a resource type": {
			yml:  "version: 1\nrules:\n  stateful-delete:\n    extra_types: [S3 Bucket]\n",
			want: []string{`planwarden.yml:4: rules.stateful-delete.extra_types[0]: expected a Terraform resource type such as aws_s3_bucket, got "S3 Bucket"`},
		},
		"override of an unknown rule": {
			yml:  "version: 1\noverrides:\n  gpu-skuloss:\n    users: [alice]\n",
			want: []string{`planwarden.yml:3: overrides.gpu-skuloss: unknown rule "gpu-skuloss"; expected a rule id or *: *, action-invocation, allowed-skus, cost-increase, endpoint-replacement, gpu-capacity-gap, gpu-increase, gpu-pool-sku, gpu-pool-taint, gpu-sku-loss, iam-admin, plan-runs-pr-code, plan-workflow-changed, plan-workflow-unreadable, required-tags, retired-sku, sku-unknown, stateful-delete, unpriced-sku (did you mean "gpu-sku-loss"?)`},
		},
		"override of plan-errored": {
			yml:  "version: 1\noverrides:\n  plan-errored:\n    users: [alice]\n",
			want: []string{`planwarden.yml:3: overrides.plan-errored: plan-errored cannot be overridden: an incomplete plan never passes`},
		},
		"override naming no one": {
			yml:  "version: 1\noverrides:\n  iam-admin: {}\n",
			want: []string{`planwarden.yml:3: overrides.iam-admin: expected at least one of users, teams or labels`},
		},
		"override team without org": {
			yml:  "version: 1\noverrides:\n  iam-admin:\n    teams: [sre]\n",
			want: []string{`planwarden.yml:4: overrides.iam-admin.teams[0]: expected a team as org/team-slug, got "sre"`},
		},
		"custom rule with a built-in id": {
			yml:  "version: 1\ncustom_rules:\n  - id: iam-admin\n    when: \"true\"\n    message: m\n",
			want: []string{`planwarden.yml:3: custom_rules[0].id: "iam-admin" is a built-in rule; pick another id (configure the built-in under rules.iam-admin)`},
		},
		"custom rule id with spaces": {
			yml:  "version: 1\ncustom_rules:\n  - id: No H100\n    when: \"true\"\n    message: m\n",
			want: []string{`planwarden.yml:3: custom_rules[0].id: expected a rule id of lower-case words joined by -, such as no-h100-in-dev, got "No H100"`},
		},
		"custom rule without when": {
			yml:  "version: 1\ncustom_rules:\n  - id: x\n    message: m\n",
			want: []string{`planwarden.yml:3: custom_rules[0]: missing key "when" (CEL expression over change and project that is true when the rule fires.)`},
		},
		"custom rule with an unknown placeholder": {
			yml:  "version: 1\ncustom_rules:\n  - id: x\n    when: \"true\"\n    message: \"{adress} is bad\"\n",
			want: []string{`planwarden.yml:5: custom_rules[0].message: custom rule "x": unknown placeholder {adress}; expected one of: {address}, {type}, {action}, {name}, {sku}, {project}, {environment}`},
		},
		"YAML syntax error": {
			yml:  "version: 1\nrules:\n  iam-admin: {severity: block\n",
			want: []string{`planwarden.yml:3: invalid YAML: did not find expected ',' or '}'`},
		},
		"unclosed list": {
			yml:  "version: 1\nprojects: [a,\nrules: {}\n",
			want: []string{`planwarden.yml:2: invalid YAML: did not find expected ',' or ']'`},
		},
		"bad indentation": {
			yml:  "version: 1\nprojects:\n  - name: a\n environment: prod\n",
			want: []string{`planwarden.yml:4: invalid YAML: did not find expected key`},
		},
		"tab indentation": {
			yml:  "version: 1\nrules:\n\tiam-admin: {}\n",
			want: []string{`planwarden.yml:3: invalid YAML: found character that cannot start any token`},
		},
		"duplicate key": {
			yml:  "version: 1\nversion: 1\n",
			want: []string{`planwarden.yml:2: invalid YAML: mapping key "version" already defined at line 1`},
		},
		"two documents": {
			yml:  "version: 1\n---\nversion: 1\n",
			want: []string{`planwarden.yml:2: invalid YAML: only one YAML document is allowed`},
		},
		"unknown confirm_by": {
			yml:  "version: 1\nenvironments:\n  staging: {destroy_workflow: d.yml, confirm_by: someone}\n",
			want: []string{`planwarden.yml:3: environments.staging.confirm_by: "someone" is not allowed; expected one of: any, other`},
		},
		"confirm_by where nothing can be destroyed": {
			yml:  "version: 1\nenvironments:\n  staging: {confirm_by: other}\n",
			want: []string{`planwarden.yml:3: environments.staging.confirm_by: confirm_by applies to /destroy-staging, which this environment does not allow; add destroy_workflow or remove confirm_by`},
		},
		"a list at the top": {
			yml:  "- version: 1\n",
			want: []string{`planwarden.yml:1: expected a mapping with version: 1 at the top, got a list`},
		},
		"several problems, by line": {
			yml: "version: 1\nprojects:\n  - name: a\n    environment: qa\nrules:\n  iam-admin: {severity: loud}\n  cost-increase: {hourly_delta: {warn: x}}\n",
			want: []string{
				`planwarden.yml:6: rules.iam-admin.severity: "loud" is not allowed; expected one of: block, warn, info, off`,
				`planwarden.yml:7: rules.cost-increase.hourly_delta.warn: expected a number, got "x"`,
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := ParseConfig("planwarden.yml", []byte(tc.yml))
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v, want *ConfigError", err, err)
			}
			if diff := cmp.Diff(tc.want, strings.Split(err.Error(), "\n")); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			for _, p := range ce.Problems {
				if p.Line < 1 {
					t.Errorf("problem without a line: %+v", p)
				}
			}
		})
	}
}

func TestEmptyConfigIsTheDefault(t *testing.T) {
	t.Parallel()
	for name, yml := range map[string]string{
		"empty":         "",
		"comments only": "# nothing yet\n\n",
		"null document": "~\n",
		"blank lines":   "\n\n   \n",
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ParseConfig(".github/planwarden.yml", []byte(yml))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]any{
				"version":           c.Version,
				"file":              c.File(),
				"prod protected":    c.IsProtected("prod"),
				"staging protected": c.IsProtected("staging"),
				"staging destroy":   workflow(c.DestroyWorkflow("staging")),
				"prod destroy":      workflow(c.DestroyWorkflow("prod")),
				"unknown destroy":   workflow(c.DestroyWorkflow("qa")),
				"anyone override":   c.MayOverride(RuleGPUSKULoss, "prod", "alice", []string{"acme/admins"}, []string{"override"}),
				"required tags":     c.requiredTags(),
				"allowed skus":      c.AllowedSKUs("prod"),
			}
			want := map[string]any{
				"version": 1, "file": ".github/planwarden.yml", "prod protected": true, "staging protected": false,
				"staging destroy": DefaultDestroyWorkflow, "prod destroy": "refused", "unknown destroy": "refused",
				"anyone override": false, "required tags": []string{"cost-center"}, "allowed skus": []string(nil),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("defaults (-want +got):\n%s", diff)
			}
		})
	}
}

func TestYAMLFeatures(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		yml  string
		want []any // prod protected, staging destroy, dev allowed SKUs
	}{
		"anchors and merge keys": {
			yml:  "version: 1\nx-gpu: &gpu {allowed_skus: [Standard_NC*]}\n",
			want: nil, // x-gpu is not a key: see the error case below
		},
		"merge key in an environment": {
			yml:  "version: 1\nenvironments:\n  prod: &p\n    protected: true\n    allowed_skus: [Standard_NC*]\n  dev:\n    <<: *p\n    protected: false\n",
			want: []any{true, "destroy-staging.yml", []string{"Standard_NC*"}},
		},
		"byte-order mark and CRLF": {
			yml:  "\ufeffversion: 1\r\nenvironments:\r\n  dev: {}\r\n",
			want: []any{true, "destroy-staging.yml", []string(nil)},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := ParseConfig("planwarden.yml", []byte(tc.yml))
			if tc.want == nil {
				if err == nil || !strings.Contains(err.Error(), `planwarden.yml:2: unknown key "x-gpu"`) {
					t.Errorf("error = %v, want unknown key x-gpu on line 2", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []any{c.IsProtected("prod"), workflow(c.DestroyWorkflow("staging")), c.AllowedSKUs("dev")}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A few lines of nested aliases (merge keys within merge keys) must not
// take forever to check.
func TestAliasBomb(t *testing.T) {
	t.Parallel()
	yml := "version: 1\nenvironments:\n  e0: &a0 {protected: true}\n"
	for i := 1; i < 10; i++ {
		refs := strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9) + fmt.Sprintf("*a%d", i-1)
		yml += fmt.Sprintf("  e%d: &a%d {<<: [%s]}\n", i, i, refs)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(yml), &doc); err != nil {
		t.Fatal(err)
	}
	ps := &problems{lines: map[string]int{}}
	ps.walk(doc.Content[0], reflect.TypeOf(Config{}), "", "")
	if ps.steps > 200 {
		t.Errorf("walked %d nodes for a %d-line file; anchors must be checked once", ps.steps, strings.Count(yml, "\n"))
	}
	if _, err := ParseConfig("bomb.yml", []byte(yml)); err != nil && !strings.Contains(err.Error(), "excessive aliasing") {
		t.Errorf("error = %v", err)
	}
}

func TestDeclaredEnvironmentReplacesTheBuiltIn(t *testing.T) {
	t.Parallel()
	c := mustConfig(t, "version: 1\nenvironments:\n  staging: {}\n  prod: {protected: false}\n  live: {protected: true}\n")
	got := []any{workflow(c.DestroyWorkflow("staging")), c.IsProtected("prod"), c.IsProtected("live")}
	want := []any{"refused", false, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("staging destroy, prod protected, live protected (-want +got):\n%s", diff)
	}
}

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yml")
	bad := filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(good, []byte("version: 1\nenvironments:\n  qa: {destroy_workflow: qa-down.yml}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("version: 1\nrulez: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(good)
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := c.DestroyWorkflow("qa"); !ok || w != "qa-down.yml" || c.File() != good {
		t.Errorf("qa destroy workflow = %q, %v; file %q", w, ok, c.File())
	}
	_, err = LoadConfig(bad)
	if want := bad + `:2: unknown key "rulez" at the top level; expected one of: version, projects, environments, rules, overrides, custom_rules, plan_workflows, plan_workflow_inputs, no_plan_paths, plan_source, approving_bots, check_per_project, minimize_outdated, pricing, cost_allocation, comment, drift_workflows (did you mean "rules"?)`; err == nil || err.Error() != want {
		t.Errorf("bad config error:\n got %v\nwant %s", err, want)
	}
	_, err = LoadConfig(filepath.Join(dir, "missing.yml"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.yml") {
		t.Errorf("missing config error = %v, want one naming the file", err)
	}
}

func TestPricingConfigErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ yml, want string }{
		"discount of nothing":      {"pricing:\n  discounts:\n    - {discount: 0.2}\n", "planwarden.yml:4: pricing.discounts[0]: a discount needs cloud or sku to say what it applies to"},
		"both cloud and sku":       {"pricing:\n  discounts:\n    - {cloud: azure, sku: Standard_D*, discount: 0.2}\n", "pricing.discounts[0]: give cloud or sku, not both"},
		"a discount of 28 percent": {"pricing:\n  discounts:\n    - {cloud: azure, discount: 28}\n", "pricing.discounts[0].discount: expected a share from 0 to below 1 (0.28 for 28%), got 28"},
		"unknown cloud":            {"pricing:\n  discounts:\n    - {cloud: oracle, discount: 0.1}\n", `pricing.discounts[0].cloud: "oracle" is not allowed; expected one of: azure, aws, aws-sagemaker, gcp`},
		"a price of zero":          {"pricing:\n  prices:\n    Standard_D4s_v5: 0\n", "pricing.prices.Standard_D4s_v5: expected your USD per hour, above 0, got 0"},
		"a bad pattern":            {"pricing:\n  discounts:\n    - {sku: \"Standard_[\", discount: 0.1}\n", `pricing.discounts[0].sku: "Standard_[" is not a valid pattern`},
		"a spot price of zero":     {"pricing:\n  spot_prices:\n    p5.48xlarge: 0\n", "pricing.spot_prices.p5.48xlarge: expected your USD per hour, above 0, got 0"},
		"an unknown capacity":      {"pricing:\n  discounts:\n    - {cloud: aws, capacity: reserved, discount: 0.1}\n", `pricing.discounts[0].capacity: "reserved" is not allowed; expected one of: on-demand, spot`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig("planwarden.yml", []byte("version: 1\n"+tc.yml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want one containing %q", err, tc.want)
			}
		})
	}
	c, err := ParseConfig("planwarden.yml", []byte("version: 1\npricing:\n  prices: {Standard_NC24ads_A100_v4: 2.9}\n  discounts: [{cloud: azure, discount: 0.28}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := c.InfraPricing()
	if p.Prices["Standard_NC24ads_A100_v4"] != 2.9 || len(p.Discounts) != 1 || p.Discounts[0] != (infra.Discount{Cloud: "azure", Fraction: 0.28}) {
		t.Errorf("InfraPricing() = %+v", p)
	}
}
