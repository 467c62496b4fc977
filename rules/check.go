package rules

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// The config's syntax checks, compiled on first use: a review without a
// config never runs them, and compiling them was most of the package's
// start-up work.
var (
	envName      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })
	ruleIDSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`) })
	resourceType = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*_[a-z0-9_]+$`) })
	workflowFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]+\.ya?ml$`) })
	planWorkflow = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.github/workflows/[A-Za-z0-9._-]+\.ya?ml$`) })
	teamSlug     = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)
	})
)

// check validates the values of a decoded config: names, references
// between sections, and custom rules.
func (ps *problems) check(c *Config) {
	if c.Version != ConfigVersion {
		ps.at("version", "expected version: %d, got %d", ConfigVersion, c.Version)
	}
	ps.checkPricing(c)
	for name, e := range c.Environments {
		p := joinPath("environments", name)
		if !envName().MatchString(name) {
			ps.at(p, "environment name %q: expected letters, digits, ., _ or -", name)
		}
		if e.Protected && e.DestroyWorkflow != "" {
			ps.at(p+".destroy_workflow", "a protected environment cannot be destroyed with /destroy-staging; remove destroy_workflow or protected")
		}
		if e.DestroyWorkflow != "" && !workflowFile().MatchString(e.DestroyWorkflow) {
			ps.at(p+".destroy_workflow", "expected a workflow file name such as destroy-staging.yml, got %q", e.DestroyWorkflow)
		}
		if e.ConfirmBy != "" && e.DestroyWorkflow == "" {
			ps.at(p+".confirm_by", "confirm_by applies to /destroy-staging, which this environment does not allow; add destroy_workflow or remove confirm_by")
		}
		ps.checkSKUs(p+".allowed_skus", e.AllowedSKUs)
	}
	envs := c.EnvironmentNames()
	knownEnv := func(p, env string) {
		if _, ok := c.envs[env]; !ok {
			msg := fmt.Sprintf("unknown environment %q; expected one of: %s (declare it under environments)", env, strings.Join(envs, ", "))
			if s := suggest(env, envs); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			ps.at(p, "%s", msg)
		}
	}

	seenWF := map[string]int{}
	for i, wf := range c.PlanWorkflows {
		p := fmt.Sprintf("plan_workflows[%d]", i)
		if !planWorkflow().MatchString(wf) {
			ps.at(p, "expected a workflow file as a path from the repo root, such as %s, got %q", DefaultPlanWorkflow, wf)
		} else if j, dup := seenWF[wf]; dup {
			ps.at(p, "%s is listed twice (also plan_workflows[%d])", wf, j)
		}
		seenWF[wf] = i
	}
	seenDrift := map[string]int{}
	for i, wf := range c.DriftWorkflows {
		p := fmt.Sprintf("drift_workflows[%d]", i)
		switch j, dup := seenDrift[wf]; {
		case !planWorkflow().MatchString(wf):
			ps.at(p, "expected a workflow file as a path from the repo root, such as .github/workflows/planwarden-drift.yml, got %q", wf)
		case dup:
			ps.at(p, "%s is listed twice (also drift_workflows[%d])", wf, j)
		case c.IsPlanWorkflow(wf):
			ps.at(p, "%s is a plan workflow too: a drift workflow plans the default branch on a schedule, a plan workflow a pull request", wf)
		}
		seenDrift[wf] = i
	}

	names := map[string]int{}
	for i, pr := range c.Projects {
		p := fmt.Sprintf("projects[%d]", i)
		if strings.TrimSpace(pr.Name) == "" {
			ps.at(p+".name", "expected a project name, got an empty string")
		} else if j, dup := names[pr.Name]; dup {
			ps.at(p+".name", "project %q is declared twice (also projects[%d])", pr.Name, j)
		} else {
			names[pr.Name] = i
		}
		if pr.Environment != "" {
			knownEnv(p+".environment", pr.Environment)
		}
		if pr.Artifact != "" && !strings.HasPrefix(pr.Artifact, "planwarden") {
			ps.at(p+".artifact", "expected an artifact name starting with planwarden (the app reads only those), got %q", pr.Artifact)
		}
		if d := pr.Directory; d != "" && (path.IsAbs(d) || slices.Contains(strings.Split(path.Clean(d), "/"), "..")) {
			ps.at(p+".directory", "expected a directory inside the repo, relative to its root, got %q", d)
		}
		for j, g := range pr.Paths {
			checkGlob(ps, fmt.Sprintf("%s.paths[%d]", p, j), g, "infra/gpu/**")
		}
	}
	for i, g := range c.PlanWorkflowInputs {
		checkGlob(ps, fmt.Sprintf("plan_workflow_inputs[%d]", i), g, "scripts/plan/**")
	}
	ps.checkGate(c)

	settings := c.Rules.byID()
	for _, id := range sortedKeys(settings) {
		s := settings[id]
		for _, env := range sortedKeys(s.Environments) {
			knownEnv(joinPath("rules."+id+".environments", env), env)
		}
	}
	for i, t := range c.Rules.RequiredTags.Tags {
		if strings.TrimSpace(t) == "" {
			ps.at(fmt.Sprintf("rules.required-tags.tags[%d]", i), "expected a tag name, got an empty string")
		}
	}
	for _, id := range []string{RuleEndpointReplacement, RuleStatefulDelete} {
		types := c.Rules.EndpointReplacement.ExtraTypes
		if id == RuleStatefulDelete {
			types = c.Rules.StatefulDelete.ExtraTypes
		}
		for i, t := range types {
			if !resourceType().MatchString(t) {
				ps.at(fmt.Sprintf("rules.%s.extra_types[%d]", id, i), "expected a Terraform resource type such as aws_s3_bucket, got %q", t)
			}
		}
	}
	ps.checkSKUs("rules.allowed-skus.skus", c.Rules.AllowedSKUs.SKUs)
	for _, th := range []struct {
		key string
		t   Thresholds
	}{{"hourly_delta", c.Rules.CostIncrease.HourlyDelta}, {"max_hourly_delta", c.Rules.CostIncrease.MaxHourlyDelta}} {
		p := "rules.cost-increase." + th.key
		if th.t.Warn != nil && *th.t.Warn < 0 {
			ps.at(p+".warn", "expected a number of USD per hour, at least 0, got %g", *th.t.Warn)
		}
		if th.t.Block != nil && *th.t.Block < 0 {
			ps.at(p+".block", "expected a number of USD per hour, at least 0, got %g", *th.t.Block)
		}
		if th.t.Warn != nil && th.t.Block != nil && *th.t.Warn > *th.t.Block {
			ps.at(p+".warn", "warn (%g) is above block (%g); expected warn <= block", *th.t.Warn, *th.t.Block)
		}
	}

	customIDs := map[string]int{}
	for i, r := range c.CustomRules {
		p := fmt.Sprintf("custom_rules[%d]", i)
		switch {
		case !ruleIDSyntax().MatchString(r.ID):
			ps.at(p+".id", "expected a rule id of lower-case words joined by -, such as no-h100-in-dev, got %q", r.ID)
		case isBuiltin(r.ID):
			ps.at(p+".id", "%q is a built-in rule; pick another id (configure the built-in under rules.%s)", r.ID, r.ID)
		default:
			if j, dup := customIDs[r.ID]; dup {
				ps.at(p+".id", "custom rule %q is declared twice (also custom_rules[%d])", r.ID, j)
			}
			customIDs[r.ID] = i
		}
		for _, env := range sortedKeys(r.Environments) {
			knownEnv(joinPath(p+".environments", env), env)
		}
		if strings.TrimSpace(r.Message) == "" {
			ps.at(p+".message", "custom rule %q: expected a message for the reviewer, got an empty string", r.ID)
		}
		for _, ph := range placeholder().FindAllString(r.Message, -1) {
			if !slices.Contains(placeholders, ph) {
				ps.at(p+".message", "custom rule %q: unknown placeholder %s; expected one of: %s", r.ID, ph, strings.Join(placeholders, ", "))
			}
		}
		if strings.TrimSpace(r.When) == "" {
			ps.at(p+".when", "custom rule %q: expected a CEL expression, got an empty string", r.ID)
			continue
		}
		cr, err := compileCustom(r)
		if err != nil {
			ps.at(p+".when", "custom rule %q does not compile: %v", r.ID, err)
			continue
		}
		c.custom = append(c.custom, cr)
	}

	for _, id := range sortedKeys(c.Overrides) {
		p := joinPath("overrides", id)
		pol := c.Overrides[id]
		_, custom := customIDs[id]
		switch {
		case id == RulePlanErrored:
			ps.at(p, "plan-errored cannot be overridden: an incomplete plan never passes")
		case id == RuleUnknownProject || id == RuleMissingPlan:
			ps.at(p, "%s cannot be overridden: declare the project under projects, or make the plan workflow upload its plan", id)
		case id != "*" && !isBuiltin(id) && !custom:
			known := append(BuiltinRules(), "*")
			for cid := range customIDs {
				known = append(known, cid)
			}
			sort.Strings(known)
			known = slices.DeleteFunc(known, func(s string) bool { return !c.Overridable(s) })
			msg := fmt.Sprintf("unknown rule %q; expected a rule id or *: %s", id, strings.Join(known, ", "))
			if s := suggest(id, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			ps.at(p, "%s", msg)
		}
		if len(pol.Users)+len(pol.Teams)+len(pol.Labels) == 0 {
			ps.at(p, "expected at least one of users, teams or labels")
		}
		for i, t := range pol.Teams {
			if !teamSlug().MatchString(t) {
				ps.at(fmt.Sprintf("%s.teams[%d]", p, i), "expected a team as org/team-slug, got %q", t)
			}
		}
		for i, u := range pol.Users {
			if strings.TrimSpace(strings.TrimPrefix(u, "@")) == "" || strings.ContainsAny(u, " /") {
				ps.at(fmt.Sprintf("%s.users[%d]", p, i), "expected a GitHub login, got %q", u)
			}
		}
		for i, l := range pol.Labels {
			if strings.TrimSpace(l) == "" {
				ps.at(fmt.Sprintf("%s.labels[%d]", p, i), "expected a label name, got an empty string")
			}
		}
		for i, env := range pol.Environments {
			knownEnv(fmt.Sprintf("%s.environments[%d]", p, i), env)
		}
		switch {
		case pol.Approvals < 0:
			ps.at(p+".approvals", "expected how many people must override, at least 1, got %d", pol.Approvals)
		case pol.Approvals > 1 && len(pol.Teams) == 0 && len(pol.Users) < pol.Approvals:
			ps.at(p+".approvals", "%d approvals are required but only %d user(s) and no team may override: no finding could ever pass", pol.Approvals, len(pol.Users))
		case pol.Approvals > 1 && len(pol.Labels) > 0:
			ps.at(p+".approvals", "a label is one approval by whoever added it; labels and approvals above 1 cannot be combined (remove labels, or approvals)")
		}
	}
	ps.checkShowText(c.Comment.ShowText)
	// Logins may be written @alice; compare without the @.
	for id, pol := range c.Overrides {
		for i, u := range pol.Users {
			pol.Users[i] = strings.TrimPrefix(u, "@")
		}
		c.Overrides[id] = pol
	}
}

func (ps *problems) checkSKUs(p string, skus []string) {
	for i, s := range skus {
		q := fmt.Sprintf("%s[%d]", p, i)
		if strings.TrimSpace(s) == "" {
			ps.at(q, "expected a SKU name or pattern, got an empty string")
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			ps.at(q, "expected a SKU name or shell pattern, got %q (%v)", s, err)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkGlob reports at p a glob of repo files that is empty, not relative
// to the repo root, or not a glob; example is one that would be.
func checkGlob(ps *problems, p, g, example string) {
	switch {
	case strings.TrimSpace(g) == "":
		ps.at(p, "expected a glob of repo files such as %s, got an empty string", example)
	case strings.HasPrefix(g, "/") || strings.HasPrefix(g, "./") || slices.Contains(strings.Split(g, "/"), ".."):
		ps.at(p, "expected a glob relative to the repo root, such as %s, got %q", example, g)
	case !doublestar.ValidatePattern(g):
		ps.at(p, "expected a glob such as %s (*, ?, [...], {a,b} and ** are allowed), got %q", example, g)
	}
}
