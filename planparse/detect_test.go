package planparse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// A reviewer must still see SKUs, ARNs, resource ids, image tags and
// hashes: none of these is a secret, whatever name it sits under.
func TestDetectorLeavesPublicValues(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ name, value string }{
		"GPU SKU":                {"vm_size", "Standard_NC24ads_A100_v4"},
		"instance type":          {"instance_type", "p4d.24xlarge"},
		"IAM role ARN":           {"role_arn", "arn:aws:iam::123456789012:role/ml-serving"},
		"KMS key ARN as *_KEY":   {"KMS_KEY", "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"},
		"KMS key name":           {"kms_key_name", "projects/p/locations/us/keyRings/r/cryptoKeys/k"},
		"AMI":                    {"ami", "ami-0abcdef1234567890"},
		"Azure resource id":      {"kubernetes_cluster_id", "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/Microsoft.ContainerService/managedClusters/gpu"},
		"image tag":              {"image", "nvcr.io/nvidia/tritonserver:24.05-py3"},
		"image digest":           {"image", "123456789012.dkr.ecr.us-east-1.amazonaws.com/app@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		"source code hash":       {"source_code_hash", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="},
		"etag":                   {"etag", "d41d8cd98f00b204e9800998ecf8427e"},
		"UUID under *_key":       {"first_key", "79CBEBB1-1192-480A-B4A8-E816A1A9D2FC"},
		"object key":             {"s3_key", "lambdas/app/handler-2024.zip"},
		"key name":               {"key_name", "deployer-2024"},
		"public key":             {"public_key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGk8 user@host"},
		"secret ARN":             {"secret_arn", "arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf"},
		"URL without a password": {"endpoint", "https://user@git.example.com/app.git"},
		"password reference":     {"DB_PASS", "${DB_PASS}"},
		"known after apply":      {"DB_PASS", UnknownText},
		"bypass flag":            {"BYPASS", "enabled-for-ci-2024"},
		"tag with auth in name":  {"auth_mode", "oidc"},
		"plain sentence":         {"description", "GPU pool for the nightly training jobs (A100, 8 per node)"},
		"IAM policy":             {"policy", `{"Statement":[{"Effect":"Allow","Action":["secretsmanager:GetSecretValue"],"Resource":"arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf"}]}`},
		"Helm secret references": {"values", "auth:\n  existingSecret: db-creds\n  secretKeys:\n    adminPasswordKey: admin-password\n"},
		"OAuth endpoint":         {"user_data", "#!/bin/bash\nexport TOKEN_URL=https://login.example.com/oauth2/token\n"},
		"secretKeyRef":           {"manifest", `{"env":[{"name":"DB_PASSWORD","valueFrom":{"secretKeyRef":{"name":"db","key":"password"}}}]}`},
		"SSM reference":          {"container_definitions", `[{"name":"app","secrets":[{"name":"DB_PASS","valueFrom":"arn:aws:ssm:us-east-1:123456789012:parameter/db/pass"}]}]`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			secret.Find(tc.value, tc.name, func(s string) {
				t.Errorf("%s = %q: detector reports %q as a secret", tc.name, tc.value, s)
			})
		})
	}
}

func TestNameSaysSecret(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		name, value string
		want        bool
	}{
		"*_PASS always":              {"DB_PASS", "hunter2", true},
		"*PWD always":                {"MYSQL_PWD", "hunter2", true},
		"passphrase":                 {"gpg_passphrase", "correct horse battery", true},
		"*_KEY random":               {"SIGNING_KEY", "q8Zt2LmV0xR4nW7cB1pK9sD3", true},
		"*_KEY not random":           {"SORT_KEY", "created_at", false},
		"*AUTH* random":              {"X_AUTH", "Zk29vLmQ0pW8rT5yN3xC6b", true},
		"*SECRET*":                   {"CLIENT_SECRET", "s3cr3t-v4lue", true},
		"*TOKEN*":                    {"SLACK_TOKEN", "anything", true},
		"empty":                      {"DB_PASS", "", false},
		"secret name is public":      {"secret_name", "prod/db", false},
		"connection_string anywhere": {"connection_string", "Server=x", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := secret.NameSays(tc.name, tc.value); got != tc.want {
				t.Errorf("secret.NameSays(%q, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
			}
		})
	}
}

// TestCorpusFalsePositives counts the displayed values of the corpus (attribute
// values and map keys of every change, outputs, addresses, check messages)
// that value detection hides although no mark and no attribute name did
// (a value found secret by name elsewhere and echoed here counts): each is
// listed, and the count must stay small. At the time of writing all of them
// hold a value the plan marks sensitive elsewhere (a marked name inside a
// log group name), which is the plan-wide rule working, not noise.
func TestCorpusFalsePositives(t *testing.T) {
	t.Parallel()
	files := corpusFiles(t)
	var hits []string
	displayed := 0
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
		z := sanitizer{secrets: p.lazy.secrets}
		norm, _ := normalize(rel, data)
		w, err := readPlan(norm)
		if err != nil {
			t.Fatal(err)
		}
		marked := collectSecrets(w, sensitiveOutputs(w.plannedScan.outputs))
		note := func(kind, where, s string) {
			if len(s) > 80 {
				s = s[:80] + "…"
			}
			hits = append(hits, rel+": "+kind+" "+where+" = "+s)
		}
		var walk func(x, mark any, key string)
		walk = func(x, mark any, key string) {
			if b, ok := mark.(bool); ok && b {
				return
			}
			switch v := x.(type) {
			case map[string]any:
				mm, _ := mark.(map[string]any)
				pairName, _ := v["name"].(string)
				for k, e := range v {
					displayed++
					if z.secretKey(k) {
						note("key", key, k)
					}
					if pv, ok := e.(string); ok && k == "value" && secret.NameSays(pairName, pv) {
						displayed++ // hidden by the name of its {name, value} pair
						continue
					}
					walk(e, mm[k], k)
				}
			case []any:
				ml, _ := mark.([]any)
				for i, e := range v {
					var m any
					if i < len(ml) {
						m = ml[i]
					}
					walk(e, m, key)
				}
			case string:
				displayed++
				if _, known := secretsOf(marked)[v]; known || key != "" && IsSecretName(key) {
					return // hidden before value detection too
				}
				if z.secrets.Contains(v) || secret.Has(v, key) {
					note("value", key, v)
				}
			}
		}
		decode := func(raw []byte) any {
			var v any
			if len(raw) > 0 {
				_ = json.Unmarshal(raw, &v)
			}
			return v
		}
		for i, c := range append(append([]*Change{}, p.Changes...), p.Drift...) {
			rc := &w.ResourceChanges
			if i >= rc.Len() {
				rc, i = &w.ResourceDrift, i-rc.Len()
			}
			rec, _ := rc.At(i)
			wc := &rec.Change
			walk(decode(wc.Before), decode(wc.BeforeSensitive), "")
			walk(decode(wc.After), decode(wc.AfterSensitive), "")
			displayed++
			if strings.Contains(c.Address+c.PreviousAddress, secret.RedactedPrefix) {
				note("address", "", c.Address)
			}
		}
		for _, ch := range p.Checks {
			for _, m := range ch.Problems {
				displayed++
				if strings.Contains(m, SensitiveText) {
					note("check", ch.Address, m)
				}
			}
		}
	}
	sort.Strings(hits)
	for _, h := range hits {
		t.Log(h)
	}
	t.Logf("%d of %d displayed strings hidden by value detection alone", len(hits), displayed)
	if len(hits) > 10 {
		t.Errorf("value detection hides %d displayed corpus values (see the log); keep false positives under 10", len(hits))
	}
}

// BenchmarkDecodeAllValues decodes (and so sanitizes and scans) every
// value of the 20,000-change benchmark plan: the most the detector can
// cost a review, since reviews decode only what they read.
func BenchmarkDecodeAllValues(b *testing.B) {
	p, err := Parse("large.json", plantest.Large(20000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range p.Changes {
			_ = c.Before().tree()
			_ = c.After().tree()
		}
	}
}

func TestSanitizeNamesPairsAndModuleKeys(t *testing.T) {
	t.Parallel()
	tok := "ghp_Zk29vLmQ0pW8rT5yN3xC6bA7sD1fG4hJ2kL9"
	plan := `{"format_version":"1.2","resource_changes":[{"address":"module.m[\"` + tok + `\"].aws_ecs_task_definition.t","module_address":"module.m[\"` + tok + `\"]",
"mode":"managed","type":"aws_ecs_task_definition","name":"t","change":{"actions":["create"],"before":null,
"after":{"env":[{"name":"SIGNING_KEY","value":"q8Zt2LmV0xR4nW7cB1pK9sD3"},{"name":"SORT_KEY","value":"created_at"}]},"after_unknown":{},"after_sensitive":{}}}]}`
	p, err := Parse("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	c := p.Changes[0]
	if strings.Contains(c.Address+c.ModuleAddress, tok) || !strings.Contains(c.ModuleAddress, secret.RedactedPrefix) {
		t.Errorf("address %q module %q", c.Address, c.ModuleAddress)
	}
	env := c.After().Get("env")
	if !env.Get(0, "value").IsSensitive() {
		t.Errorf("SIGNING_KEY's random value shows: %s", env.Get(0, "value").Display())
	}
	if v := env.Get(1, "value").Display(); v != "created_at" {
		t.Errorf("SORT_KEY's value = %q, want it shown", v)
	}
}
