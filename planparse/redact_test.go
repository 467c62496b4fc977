package planparse

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedactCorpusHidesMarkedValues: no value a corpus plan marks
// sensitive is left in its redacted form, as a value or as a key.
func TestRedactCorpusHidesMarkedValues(t *testing.T) {
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
		for s := range p.lazy.secrets {
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
	if pin, _ := after["pin"].(string); !isRedactedText(pin) {
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
	if !isRedactedText(pw) || pw == c["before"].(map[string]any)["password"] {
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
