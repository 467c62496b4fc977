package planparse

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
)

func mustParse(t *testing.T, name, data string) *Plan {
	t.Helper()
	p, err := Parse(name, []byte(data))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return p
}

func byAddress(p *Plan) map[string]*Change {
	m := map[string]*Change{}
	for _, c := range p.Changes {
		m[c.Address] = c
	}
	return m
}

// TestRealTerraformPlan reads a plan made by the terraform CLI from
// testdata/terraform-real (regen.sh): every action Terraform can plan for
// built-in resources, a moved block, a removed block, modules with count
// and for_each, a sensitive variable and a sensitive output.
func TestRealTerraformPlan(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/terraform-real.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("terraform-real.json", data)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		action   Action
		order    ReplaceOrder
		prev     string
		reason   string
		index    string
		module   string
		mode     Mode
		diffPath []string
	}
	tests := map[string]struct {
		address string
		want    want
	}{
		"update in place":           {"terraform_data.update_me", want{action: ActionUpdate, mode: ModeManaged, diffPath: []string{"input.size", "output"}}},
		"replace, delete first":     {"terraform_data.replace_me", want{action: ActionReplace, order: DeleteThenCreate, reason: "replace_because_cannot_update", mode: ModeManaged, diffPath: []string{"id", "triggers_replace[0]"}}},
		"create_before_destroy":     {"terraform_data.cbd", want{action: ActionReplace, order: CreateThenDelete, reason: "replace_because_cannot_update", mode: ModeManaged, diffPath: []string{"id", "triggers_replace[0]"}}},
		"create":                    {"terraform_data.created", want{action: ActionCreate, mode: ModeManaged, diffPath: []string{"id", "input", "output"}}},
		"delete, config removed":    {"terraform_data.delete_me", want{action: ActionDelete, reason: "delete_because_no_resource_config", mode: ModeManaged, diffPath: []string{"id", "input", "output"}}},
		"removed block forgets":     {"terraform_data.forget_me", want{action: ActionForget, reason: "delete_because_no_resource_config", mode: ModeManaged}},
		"moved block":               {"terraform_data.moved", want{action: ActionNoop, prev: "terraform_data.move_me", mode: ModeManaged}},
		"data source read":          {"data.terraform_remote_state.self", want{action: ActionRead, reason: "read_because_dependency_pending", mode: ModeData}},
		"count index":               {"module.counted[2].terraform_data.node", want{action: ActionCreate, index: "", module: "module.counted[2]", mode: ModeManaged, diffPath: []string{"id", "input", "output"}}},
		"for_each key, module gone": {"module.each[\"cpu\"].terraform_data.node", want{action: ActionDelete, reason: "delete_because_no_module", module: "module.each[\"cpu\"]", mode: ModeManaged, diffPath: []string{"id", "input", "output"}}},
		"sensitive input changed":   {"terraform_data.secret", want{action: ActionUpdate, mode: ModeManaged, diffPath: []string{"input", "output"}}},
	}
	changes := byAddress(p)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := changes[tc.address]
			if c == nil {
				t.Fatalf("no change %s", tc.address)
			}
			got := want{action: c.Action, order: c.ReplaceOrder, prev: c.PreviousAddress, reason: c.ReasonCode,
				index: c.Index, module: c.ModuleAddress, mode: c.Mode}
			for _, d := range c.Diff() {
				got.diffPath = append(got.diffPath, d.Path)
			}
			if c.Action == ActionForget || c.Action == ActionNoop || c.Action == ActionRead {
				got.diffPath = nil
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("change %s (-want +got):\n%s", tc.address, diff)
			}
			if c.ReasonCode != "" && c.Reason == "" {
				t.Errorf("reason %q has no words", c.ReasonCode)
			}
		})
	}
	secret := changes["terraform_data.secret"]
	for _, d := range secret.Diff() {
		if !d.Sensitive || d.Before.Display() != SensitiveText {
			t.Errorf("secret diff %s shows %q -> %q, want it redacted", d.Path, d.Before.Display(), d.After.Display())
		}
	}
	if len(p.Outputs) != 2 || p.Outputs[1].Name != "db_password" || !p.Outputs[1].Sensitive {
		t.Errorf("outputs = %+v, want created_id and a sensitive db_password", p.Outputs)
	}
	for _, r := range append(p.PriorResources(), p.PlannedResources()...) {
		if strings.Contains(r.Values.Display(), "hunter2") {
			t.Errorf("%s leaks the sensitive variable: %s", r.Address, r.Values.Display())
		}
	}
	if got := changes["module.counted[2].terraform_data.node"]; got.Name != "node" || got.Type != "terraform_data" {
		t.Errorf("module resource name/type = %s/%s", got.Name, got.Type)
	}
}

// TestHandWrittenPlans covers what the CLI cannot plan here: imports,
// deferred changes, drift, errored and empty plans, nested replace paths.
func TestHandWrittenPlans(t *testing.T) {
	t.Parallel()
	t.Run("import with generated config", func(t *testing.T) {
		p := mustParse(t, "import.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_s3_bucket.logs","mode":"managed","type":"aws_s3_bucket","name":"logs","provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["no-op"],"before":{"bucket":"logs"},"after":{"bucket":"logs"},"importing":{"id":"logs"},"generated_config":"resource \"aws_s3_bucket\" \"logs\" {}"}}]}`)
		c := p.Changes[0]
		if c.Importing == nil || c.Importing.ID != "logs" || !c.Importing.GeneratedConfig {
			t.Fatalf("importing = %+v, want id logs with generated config", c.Importing)
		}
	})
	t.Run("deferred", func(t *testing.T) {
		p := mustParse(t, "deferred.json", `{"format_version":"1.2","complete":false,"resource_changes":[],"deferred_changes":[{"reason":"instance_count_unknown","resource_change":{"address":"aws_instance.gpu[\"a\"]","type":"aws_instance","name":"gpu","index":"a","change":{"actions":["create"],"before":null,"after":{"instance_type":"p4d.24xlarge"}}}}]}`)
		if len(p.Deferred) != 1 || p.Deferred[0].Change.Index != `"a"` || !strings.Contains(p.Deferred[0].Reason, "count") {
			t.Fatalf("deferred = %+v", p.Deferred)
		}
		if p.Complete == nil || *p.Complete {
			t.Errorf("complete = %v, want false", p.Complete)
		}
	})
	t.Run("drift", func(t *testing.T) {
		p := mustParse(t, "drift.json", `{"format_version":"1.1","resource_drift":[{"address":"aws_instance.a","type":"aws_instance","name":"a","change":{"actions":["update"],"before":{"tags":{"team":"ml"}},"after":{"tags":{"team":"ml","touched":"by-hand"}}}}],"resource_changes":[]}`)
		if len(p.Drift) != 1 || len(p.Changes) != 0 {
			t.Fatalf("drift %d, changes %d", len(p.Drift), len(p.Changes))
		}
		d := p.Drift[0].Diff()
		if len(d) != 1 || d[0].Path != "tags.touched" || d[0].After.Display() != "by-hand" {
			t.Errorf("drift diff = %+v", d)
		}
	})
	t.Run("errored", func(t *testing.T) {
		p := mustParse(t, "errored.json", `{"format_version":"1.2","errored":true,"applyable":false,"resource_changes":[]}`)
		if !p.Errored || p.Applyable == nil || *p.Applyable {
			t.Errorf("errored=%v applyable=%v", p.Errored, p.Applyable)
		}
	})
	t.Run("empty plan is no changes", func(t *testing.T) {
		p := mustParse(t, "empty.json", `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{}},"configuration":{"root_module":{}}}`)
		if len(p.Changes) != 0 || p.Errored {
			t.Errorf("changes=%d errored=%v", len(p.Changes), p.Errored)
		}
	})
	t.Run("nested replace path", func(t *testing.T) {
		p := mustParse(t, "rp.json", `{"format_version":"1.2","resource_changes":[{"address":"azurerm_kubernetes_cluster.main","type":"azurerm_kubernetes_cluster","name":"main","change":{"actions":["create","delete"],"before":{"default_node_pool":[{"vm_size":"Standard_NC6s_v3"}]},"after":{"default_node_pool":[{"vm_size":"Standard_D16s_v5"}]},"replace_paths":[["default_node_pool",0,"vm_size"]]},"action_reason":"some_future_reason"}]}`)
		c := p.Changes[0]
		if diff := cmp.Diff([]string{"default_node_pool[0].vm_size"}, c.ReplacePaths); diff != "" {
			t.Error(diff)
		}
		if c.ReasonCode != "" || c.Reason != "" {
			t.Errorf("unknown action_reason should read as none, got %q", c.ReasonCode)
		}
		d := c.Diff()
		if len(d) != 1 || !d[0].ForcesReplacement {
			t.Errorf("diff = %+v, want vm_size forcing replacement", d)
		}
		if got := c.Before().Get("default_node_pool", 0, "vm_size"); got.Display() != "Standard_NC6s_v3" {
			t.Errorf("accessor = %q", got.Display())
		}
	})
	t.Run("secret-looking attribute without a mark", func(t *testing.T) {
		p := mustParse(t, "s.json", `{"format_version":"1.2","resource_changes":[{"address":"azurerm_storage_account.a","type":"azurerm_storage_account","name":"a","change":{"actions":["update"],"before":{"primary_access_key":"AAAA1111","primary_connection_string":"DefaultEndpointsProtocol=https;AccountKey=AAAA1111","name":"a"},"after":{"primary_access_key":"BBBB2222","primary_connection_string":"x","name":"a"}}}]}`)
		for _, d := range p.Changes[0].Diff() {
			if !d.Sensitive || strings.Contains(d.Before.Display()+d.After.Display(), "AAAA") {
				t.Errorf("%s not redacted: %s -> %s", d.Path, d.Before.Display(), d.After.Display())
			}
		}
	})
	t.Run("unchanged secret is not a change", func(t *testing.T) {
		p := mustParse(t, "u.json", `{"format_version":"1.2","resource_changes":[{"address":"x.a","type":"x","name":"a","change":{"actions":["update"],"before":{"password":"same","size":1},"after":{"password":"same","size":2},"before_sensitive":{"password":true},"after_sensitive":{"password":true}}}]}`)
		d := p.Changes[0].Diff()
		if len(d) != 1 || d[0].Path != "size" {
			t.Errorf("diff = %+v, want only size", d)
		}
	})
}

// TestBadInput checks that each kind of bad input gets its typed error,
// naming the file and saying what to do.
func TestBadInput(t *testing.T) {
	t.Parallel()
	utf16le := func(s string) []byte {
		u := utf16.Encode([]rune(s))
		b := []byte{0xFF, 0xFE}
		for _, r := range u {
			b = append(b, byte(r), byte(r>>8))
		}
		return b
	}
	tests := map[string]struct {
		data []byte
		kind error
		says []string
	}{
		"not JSON, with line and column": {[]byte("{\n  \"format_version\": \"1.2\",\n  oops\n}"), ErrNotJSON, []string{"bad.json:3:3"}},
		"state file":                     {[]byte(`{"version":4,"terraform_version":"1.9.0","serial":3,"lineage":"x","outputs":{},"resources":[]}`), ErrNotPlan, []string{"state file", "terraform show -json"}},
		"show -json of a state":          {[]byte(`{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{}}}`), ErrNotPlan, []string{"of a state"}},
		"binary plan":                    {append([]byte("PK\x03\x04"), make([]byte, 64)...), ErrBinaryPlan, []string{"terraform show -json bad.json"}},
		"wrapper output":                 {[]byte("[command]/usr/bin/terraform-bin show -json tfplan\n{\"format_version\":\"1.2\"}\n::set-output name=exitcode::0\n"), ErrWrapperOutput, []string{"terraform_wrapper: false"}},
		"format 2.0":                     {[]byte(`{"format_version":"2.0","resource_changes":[]}`), ErrUnsupportedVersion, []string{"2.0"}},
		"empty file":                     {[]byte("  \n"), ErrEmptyInput, []string{"empty"}},
		"array, not object":              {[]byte(`[1,2]`), ErrNotPlan, []string{"not an object"}},
		"unknown action":                 {[]byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","change":{"actions":["explode"]}}]}`), ErrNotPlan, []string{"resource_changes[0]", "explode"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("bad.json", tc.data)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("want %v, got %v", tc.kind, err)
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "bad.json" {
				t.Fatalf("error does not name the file: %v", err)
			}
			for _, s := range append(tc.says, "bad.json") {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
	t.Run("UTF-16 with BOM is decoded", func(t *testing.T) {
		p, err := Parse("ps.json", utf16le(`{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","name":"b","change":{"actions":["create"],"after":{"name":"é"}}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Changes[0].After().Get("name").Display(); got != "é" {
			t.Errorf("name = %q", got)
		}
	})
	t.Run("UTF-8 BOM is accepted", func(t *testing.T) {
		if _, err := Parse("bom.json", append([]byte{0xEF, 0xBB, 0xBF}, `{"format_version":"0.1"}`...)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStripInstanceKeys(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"plain":              {"aws_instance.a", "aws_instance.a"},
		"count":              {"aws_instance.a[3]", "aws_instance.a"},
		"module for_each":    {`module.m["x.y"].aws_instance.a[0]`, "module.m.aws_instance.a"},
		"bracket in key":     {`module.m["a]b"].x.y`, "module.m.x.y"},
		"escaped quote":      {`module.m["a\"]"].x.y`, "module.m.x.y"},
		"nested module keys": {`module.a[0].module.b["k"].t.n`, "module.a.module.b.t.n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := StripInstanceKeys(tc.in); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAddressSteps(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   string
		want []string
	}{
		"plain":               {"aws_instance.a", []string{"aws_instance", "a"}},
		"reference attribute": {"aws_launch_template.gpu[0].id", []string{"aws_launch_template", "gpu[0]", "id"}},
		"dotted key":          {`module.m["x.y"].aws_instance.b`, []string{"module", `m["x.y"]`, "aws_instance", "b"}},
		"bracket and quote":   {`aws_s3_bucket.a["q\"].]"]`, []string{"aws_s3_bucket", `a["q\"].]"]`}},
		"one step":            {"var", []string{"var"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, AddressSteps(tc.in)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestReplacePathMatchesDiffPath: a replace path through a map key that is
// not an identifier renders like the diff path, so the diff entry is
// marked as forcing the replacement.
func TestReplacePathMatchesDiffPath(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "rp.json", `{"format_version":"1.2","resource_changes":[{"address":"azurerm_kubernetes_cluster_node_pool.gpu","type":"azurerm_kubernetes_cluster_node_pool","name":"gpu","change":{"actions":["delete","create"],"before":{"node_labels":{"kubernetes.azure.com/sku":"gpu"}},"after":{"node_labels":{"kubernetes.azure.com/sku":"cpu"}},"replace_paths":[["node_labels","kubernetes.azure.com/sku"]]}}]}`)
	c := p.Changes[0]
	if want := `node_labels["kubernetes.azure.com/sku"]`; len(c.ReplacePaths) != 1 || c.ReplacePaths[0] != want {
		t.Fatalf("replace paths = %q, want %q", c.ReplacePaths, want)
	}
	if d := c.Diff(); len(d) != 1 || !d[0].ForcesReplacement {
		t.Errorf("diff = %+v, want the label forcing the replacement", d)
	}
}

// A create_before_destroy replacement that left a deposed object lists its
// address twice; the deposed object's change says so.
func TestParseDeposedObject(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/deposed-replace.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("deposed-replace.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 2 || p.Changes[0].Deposed != "" || p.Changes[1].Deposed != "00000001" || p.Changes[1].Action != ActionDelete || p.Changes[0].Action != ActionReplace {
		t.Errorf("changes %v; want the replacement, then the deposed object's delete", p.Changes)
	}
}

// A deposed key is text a comment shows: a secret of the plan in it is
// hidden like anywhere else.
func TestDeposedKeyIsRedacted(t *testing.T) {
	t.Parallel()
	const secret = "Zx9-kQ2v-Lm7p-Rt4w"
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","type":"aws_instance","name":"a","deposed":"`+secret+`",
	  "change":{"actions":["delete"],"before":{"password":"`+secret+`"},"after":null,"before_sensitive":{"password":true}}}]}`)
	if d := p.Changes[0].Deposed; d == "" || strings.Contains(d, secret) {
		t.Errorf("deposed key %q; want it shown with the secret hidden", d)
	}
}
