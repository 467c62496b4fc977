package rules

import (
	"slices"
	"sync/atomic"

	"github.com/planwarden/planwarden/par"
)

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
	return c.EvaluateWithPolicy(par.Policy{}, projects, nil, overrides)
}

// EvaluateWith is Evaluate with findings made outside the plans (the
// app's provenance findings) joining the plans' findings under one
// verdict: the same result as Conclude(append(Evaluate(projects,
// nil).Findings, extra...), overrides), without sorting twice.
func (c *Config) EvaluateWith(projects []Project, extra []Finding, overrides []Override) Result {
	return c.EvaluateWithPolicy(par.Policy{}, projects, extra, overrides)
}

// EvaluateWithPolicy is EvaluateWith with pol deciding which of its work
// goes on two goroutines (a large project's rules, many findings): the
// result is the same whatever it decides.
func (c *Config) EvaluateWithPolicy(pol par.Policy, projects []Project, extra []Finding, overrides []Override) Result {
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
		if len(runs) > 1 && pol.Split(par.Changes, len(s.changes)) {
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
	if drafts := n - len(extra); pol.Split(par.Findings, drafts) {
		findings = c.completeConcurrently(batches, findings, drafts)
	} else {
		findings = c.complete(batches, findings)
	}
	return c.conclude(append(findings, extra...), overrides, pol)
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
	return c.conclude(slices.Clone(findings), overrides, par.Policy{})
}

// conclude is Conclude on findings it may reorder and change.
func (c *Config) conclude(findings []Finding, overrides []Override, pol par.Policy) Result {
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
	sortFindings(findings, pol)
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
