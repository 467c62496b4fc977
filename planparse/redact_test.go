package planparse

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// TestRedactCorpusHidesMarkedValues: no value a corpus plan marks
// sensitive is left in its redacted form, as a value or as a key.
func TestRedactCorpusHidesMarkedValues(t *testing.T) {
	t.Parallel()
	files := corpusFiles(t)
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(corpusDir, f)
		p, err := Parse(rel, data)
		if err != nil {
			continue
		}
		red, err := Redact(rel, data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for s := range secretsOf(p.lazy.secrets) {
			checked++
			q, _ := json.Marshal(s)
			if bytes.Contains(red, q) {
				t.Errorf("%s: the redacted plan still holds the marked value %s", rel, q)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d marked values in the corpus; the test checks too little", checked)
	}
}

func TestRedactKeepsStructure(t *testing.T) {
	t.Parallel()
	plan := `{"format_version":"1.2","variables":{"db_password":{"value":"hunter2hunter2"},"region":{"value":"eastus"}},
"configuration":{"root_module":{"variables":{"db_password":{"sensitive":true}}}},
"resource_changes":[{"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db","change":{"actions":["update"],
"before":{"password":"old-secret-1","port":5432,"tags":{"n":"x"}},"after":{"password":"hunter2hunter2","port":5433,"tags":{"n":"x"},"id":null,"pin":"739"},
"after_unknown":{"id":true},"before_sensitive":{"password":true},"after_sensitive":{"password":true,"pin":true}}}]}`
	red, err := Redact("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(red), "hunter2") || strings.Contains(string(red), "old-secret-1") {
		t.Fatalf("a secret survived: %s", red)
	}
	var doc map[string]any
	if err := json.Unmarshal(red, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc["resource_changes"].([]any)[0].(map[string]any)["change"].(map[string]any)
	after := c["after"].(map[string]any)
	// Too short for the plan-wide set: only the mark hides it.
	if pin, _ := after["pin"].(string); !secret.IsRedacted(pin) {
		t.Errorf("marked pin = %v, want a placeholder", after["pin"])
	}
	if after["port"] != 5433.0 || after["tags"].(map[string]any)["n"] != "x" {
		t.Errorf("a value no one marked changed: %v", after)
	}
	if c["after_unknown"].(map[string]any)["id"] != true || c["after_sensitive"].(map[string]any)["password"] != true {
		t.Errorf("marks or unknowns lost: %v %v", c["after_unknown"], c["after_sensitive"])
	}
	if doc["variables"].(map[string]any)["region"].(map[string]any)["value"] != "eastus" {
		t.Errorf("a plain variable changed: %v", doc["variables"])
	}
	pw, _ := after["password"].(string)
	if !secret.IsRedacted(pw) || pw == c["before"].(map[string]any)["password"] {
		t.Errorf("password placeholders %q / %q: want two different placeholders", pw, c["before"].(map[string]any)["password"])
	}
	p, err := Parse("plan.json", red)
	if err != nil {
		t.Fatal(err)
	}
	d := p.Changes[0].Diff()
	var paths []string
	for _, x := range d {
		paths = append(paths, x.Path)
	}
	if strings.Join(paths, ",") != "id,password,pin,port" || !d[1].Sensitive || d[1].After.Display() != SensitiveText {
		t.Errorf("review of the redacted plan: %+v", d)
	}
}

// plantedPlan puts secret where secrets sit: under a mark, under a name
// that says secret, as a for_each key, as a map key, in a sensitive
// variable, in a sensitive output and echoed unmarked elsewhere.
func plantedPlan(secret string) []byte {
	change := func(addr string, after, sens map[string]any) map[string]any {
		return map[string]any{"address": addr, "mode": "managed", "type": "aws_ssm_parameter", "name": "p",
			"change": map[string]any{"actions": []string{"update"}, "before": map[string]any{"value": "a"}, "after": after,
				"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": sens}}
	}
	keyed := change("aws_ssm_parameter.p["+strconv.Quote(secret)+"]",
		map[string]any{"value": secret, "env": map[string]any{"DB_PASS": secret}, "labels": map[string]any{secret: "x"}},
		map[string]any{"value": true})
	keyed["index"] = secret
	plan := map[string]any{"format_version": "1.2",
		"variables":     map[string]any{"db_password": map[string]any{"value": secret}},
		"configuration": map[string]any{"root_module": map[string]any{"variables": map[string]any{"db_password": map[string]any{"sensitive": true}}}},
		"output_changes": map[string]any{"conn": map[string]any{"actions": []string{"create"}, "before": nil, "after": secret,
			"after_unknown": false, "before_sensitive": false, "after_sensitive": true}},
		"resource_changes": []any{keyed,
			change("terraform_data.echo", map[string]any{"value": secret, "note": map[string]any{"text": secret}}, map[string]any{})},
	}
	b, _ := json.Marshal(plan)
	return b
}

// foundPlan plants secret where only its name gives it away (an unmarked
// environment variable DB_PASS) and shows it again under plain names: a
// description, a tag, an instance key, an output and a check message.
func foundPlan(secret string) []byte {
	change := func(addr string, after map[string]any) map[string]any {
		return map[string]any{"address": addr, "mode": "managed", "type": "aws_ssm_parameter", "name": "p",
			"change": map[string]any{"actions": []string{"update"}, "before": map[string]any{"value": "a"}, "after": after,
				"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}}
	}
	keyed := change("aws_ssm_parameter.p["+strconv.Quote(secret)+"]", map[string]any{"value": "b"})
	keyed["index"] = secret
	plan := map[string]any{"format_version": "1.2",
		"output_changes": map[string]any{"conn": map[string]any{"actions": []string{"create"}, "before": nil, "after": secret,
			"after_unknown": false, "before_sensitive": false, "after_sensitive": false}},
		"resource_changes": []any{keyed,
			change("aws_lambda_function.f", map[string]any{"environment": map[string]any{"DB_PASS": secret}}),
			change("terraform_data.echo", map[string]any{"description": "login " + secret + " ok", "tags": map[string]any{"note": secret}})},
		"checks": []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.c", "name": "c"}, "status": "fail",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.c"}, "status": "fail",
				"problems": []any{map[string]any{"message": "login " + secret + " refused"}}}}}},
	}
	b, _ := json.Marshal(plan)
	return b
}

var placeholders = regexp.MustCompile(`\(sensitive\)( [0-9a-f]{8})?`)

// FuzzRedact: whatever the secret, neither the redacted plan nor anything
// planwarden reads back from it holds it; marked in one place (plantedPlan),
// or found only by its name (foundPlan), where the review of the plan
// itself must not show it either.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"hunter2hunter2", "ghp_0123456789abcdefghijABCDEFGHIJ012345", `pa"ss\word\u00e9`, "x\ny: z\n", "aGVsbG8gd29ybGQ=", "(sensitive) 0123abcd0", "ümlaut-passwört"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, sec string, found bool) {
		plant := plantedPlan
		if found {
			plant = foundPlan
		}
		plan := plant(sec)
		// Too short to be redacted inside other strings, or part of the
		// plan's own words ("aws_ssm_parameter"): not a sec to plant.
		// Nor a piece of the markers a review shows ("(sensiti").
		if len(sec) < secret.MinContainedLen || !utf8.ValidString(sec) || secret.IsRedacted(sec) ||
			bytes.Count(plant("\x00"), []byte(sec)) > 0 || strings.Contains(secret.RedactedPrefix+UnknownText, sec) {
			t.Skip()
		}
		// Found by its name, but not hidden elsewhere: only words, a
		// reference, a plain URL (docs/secrets.md).
		if found && !secret.Learnable(sec) {
			t.Skip()
		}
		if found {
			p, err := Parse("fuzz.json", plan)
			if err != nil {
				t.Fatalf("the planted plan does not parse: %v", err)
			}
			if seen := displayed(p); strings.Contains(seen, sec) {
				t.Fatalf("the review of the plan holds the sec: %s", seen)
			}
		}
		red, err := Redact("fuzz.json", plan)
		if err != nil {
			t.Fatalf("redact refused the planted plan: %v", err)
		}
		q, _ := json.Marshal(sec)
		// The placeholders themselves are no leak ("(sensiti" is in each).
		red = placeholders.ReplaceAll(red, nil)
		if bytes.Contains(red, q[1:len(q)-1]) || bytes.Contains(red, []byte(sec)) {
			t.Fatalf("the redacted plan holds the sec:\n%s", red)
		}
		p, err := Parse("fuzz.json", red)
		if err != nil {
			t.Fatalf("the redacted plan does not parse: %v", err)
		}
		if seen := displayed(p); strings.Contains(placeholders.ReplaceAllString(seen, ""), sec) {
			t.Fatalf("the review of the redacted plan holds the sec: %s", seen)
		}
	})
}

// displayed is what a review shows of p's changes, outputs and checks.
func displayed(p *Plan) string {
	var seen strings.Builder
	for _, c := range p.Changes {
		seen.WriteString(c.Address + c.Index)
		for _, d := range c.Diff() {
			seen.WriteString(d.Path + d.Before.Display() + d.After.Display())
		}
	}
	for _, o := range p.Outputs {
		seen.WriteString(o.Before.Display() + o.After.Display())
	}
	for _, c := range p.Checks {
		seen.WriteString(c.Address + strings.Join(c.Problems, " "))
	}
	return seen.String()
}
