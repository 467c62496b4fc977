package rules

import (
	"fmt"
	"strings"
)

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
