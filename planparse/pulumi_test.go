package planparse

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

func parsePulumiFile(t *testing.T, path string) *Plan {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tool != ToolPulumi {
		t.Fatalf("%s: Tool = %q, want %q", path, p.Tool, ToolPulumi)
	}
	return p
}

func changeAt(t *testing.T, p *Plan, addr string) *Change {
	t.Helper()
	for _, c := range p.Changes {
		if c.Address == addr {
			return c
		}
	}
	t.Fatalf("no change %s", addr)
	return nil
}

type pulumiView struct {
	Type, Module, Provider string
	Mode                   Mode
	Action                 Action
	Order                  ReplaceOrder
	Paths                  []string
	Reason, Import         string
}

// Every step op becomes one change (a replacement's steps fold into one);
// the stack, its providers and the component resource are none.
func TestPulumiOps(t *testing.T) {
	t.Parallel()
	p := parsePulumiFile(t, "testdata/pulumi/ops.json")
	want := map[string]pulumiView{
		"aws:ec2:Instance::trainer":           {Type: "aws_instance", Provider: "aws.west", Mode: ModeManaged, Action: ActionCreate},
		"aws:s3:BucketV2::artifacts":          {Type: "aws_s3_bucket", Provider: "aws", Mode: ModeManaged, Action: ActionUpdate},
		"aws:dynamodb:Table::features":        {Type: "aws_dynamodb_table", Provider: "aws", Mode: ModeManaged, Action: ActionDelete, Reason: "it is no longer in the Pulumi program"},
		"aws:eks:NodeGroup::gpu":              {Type: "aws_eks_node_group", Provider: "aws", Mode: ModeManaged, Action: ActionReplace, Order: CreateThenDelete, Paths: []string{"instance_types"}, Reason: reasons["replace_because_cannot_update"]},
		"serving/aws:sagemaker:Endpoint::llm": {Type: "aws_sagemaker_endpoint", Module: "serving", Provider: "aws", Mode: ModeManaged, Action: ActionUpdate},
		"serving/aws:sagemaker:EndpointConfiguration::llm-config": {Type: "aws_sagemaker_endpoint_configuration", Module: "serving", Provider: "aws", Mode: ModeManaged,
			Action: ActionReplace, Order: CreateThenDelete, Paths: []string{"production_variants[0].instance_type"}, Reason: reasons["replace_because_cannot_update"]},
		"aws:ec2:Vpc::shared":           {Type: "aws:ec2/vpc:Vpc", Provider: "aws", Mode: ModeData, Action: ActionRead},
		"aws:ecr:Repository::models":    {Type: "aws_ecr_repository", Provider: "aws", Mode: ModeManaged, Action: ActionNoop, Import: "models"},
		"aws:iam:Role::trainer-role":    {Type: "aws_iam_role", Provider: "aws", Mode: ModeManaged, Action: ActionNoop, Reason: "the preview refreshes it from the cloud"},
		"aws:ec2:Subnet::legacy":        {Type: "aws:ec2/subnet:Subnet", Provider: "aws", Mode: ModeManaged, Action: ActionForget, Reason: "Pulumi stops tracking it (a read resource); the object is not deleted"},
		"aws:rds:Instance::registry-db": {Type: "aws_db_instance", Provider: "aws", Mode: ModeManaged, Action: ActionNoop},
	}
	got := map[string]pulumiView{}
	for _, c := range p.Changes {
		v := pulumiView{Type: c.Type, Module: c.ModuleAddress, Provider: c.Provider, Mode: c.Mode, Action: c.Action, Order: c.ReplaceOrder,
			Paths: c.ReplacePaths, Reason: c.Reason}
		if c.Importing != nil {
			v.Import = c.Importing.ID
		}
		got[c.Address] = v
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if p.Errored || len(p.Checks) != 0 {
		t.Errorf("a warning diagnostic made the preview errored: %v %+v", p.Errored, p.Checks)
	}
}

// A replacement whose old object the preview deletes before it creates the
// new one (deleteBeforeReplace) replaces delete-first; one shown create
// first, or by its replace step alone, create-first (Pulumi's default).
func TestPulumiReplaceOrder(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		ops  []string
		want ReplaceOrder
	}{
		"delete-replaced first":    {[]string{"delete-replaced", "replace", "create-replacement"}, DeleteThenCreate},
		"create-replacement first": {[]string{"create-replacement", "replace", "delete-replaced"}, CreateThenDelete},
		"the replace step alone":   {[]string{"replace"}, CreateThenDelete},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var steps []any
			u := "urn:pulumi:dev::ml::aws:eks/nodeGroup:NodeGroup::gpu"
			st := map[string]any{"urn": u, "custom": true, "type": "aws:eks/nodeGroup:NodeGroup", "inputs": map[string]any{"instanceTypes": []any{"g5.xlarge"}}}
			for _, op := range tc.ops {
				steps = append(steps, map[string]any{"op": op, "urn": u, "oldState": st, "newState": st, "replaceReasons": []any{"instanceTypes"}})
			}
			p := parsePreview(t, map[string]any{"steps": steps})
			if len(p.Changes) != 1 || p.Changes[0].Action != ActionReplace || p.Changes[0].ReplaceOrder != tc.want {
				t.Fatalf("got %d changes, first %+v; want one replace %s", len(p.Changes), p.Changes[0], tc.want)
			}
		})
	}
}

func parsePreview(t *testing.T, doc map[string]any) *Plan {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("preview.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Secrets in every form Pulumi writes them read as sensitive, and a
// plaintext secret appears nowhere else either.
func TestPulumiSecretsHidden(t *testing.T) {
	t.Parallel()
	p := parsePulumiFile(t, "testdata/pulumi/ops.json")
	const plaintext = "hf_pulumiFixtureSecretValue123"
	trainer := changeAt(t, p, "aws:ec2:Instance::trainer")
	if v := trainer.After().Get("user_data"); !v.IsSensitive() || v.Display() != SensitiveText {
		t.Errorf("the signature-wrapped plaintext secret reads %q", v.Display())
	}
	db := changeAt(t, p, "aws:rds:Instance::registry-db")
	if v := db.After().Get("password"); !v.IsSensitive() {
		t.Errorf("[secret] reads %q, not as sensitive", v.Display())
	}
	for _, c := range p.Changes {
		for _, d := range c.Diff() {
			for _, s := range []string{d.Path, d.Before.Display(), d.After.Display()} {
				if strings.Contains(s, plaintext) {
					t.Errorf("%s: the secret shows in the diff: %s", c.Address, s)
				}
			}
		}
		for _, v := range []Value{c.Before(), c.After()} {
			if b, _ := json.Marshal(v.Interface()); strings.Contains(string(b), plaintext) {
				t.Errorf("%s: the secret shows in a value: %s", c.Address, b)
			}
		}
	}
	// The plan's secret set knows it: text that quotes it is redacted.
	if got := secret.Redact("token was "+plaintext, p.lazy.secrets); strings.Contains(got, plaintext) {
		t.Errorf("the plaintext is not in the plan's secrets: %q", got)
	}
	// A ciphertext secret reads as sensitive as well.
	ct := parsePreview(t, map[string]any{"steps": []any{map[string]any{"op": "create", "urn": "urn:pulumi:dev::ml::aws:ssm/parameter:Parameter::token",
		"newState": map[string]any{"custom": true, "type": "aws:ssm/parameter:Parameter", "inputs": map[string]any{"name": "token",
			"value": map[string]any{pulumiSigKey: pulumiSecretSig, "ciphertext": "v1:AAAAbm90LWEtcmVhbC1jaXBoZXJ0ZXh0"}}}}}})
	if v := ct.Changes[0].After().Get("value"); !v.IsSensitive() {
		t.Errorf("a ciphertext secret reads %q", v.Display())
	}
	if v := ct.Changes[0].After().Get("name"); v.IsSensitive() {
		t.Errorf("its name beside it reads as sensitive")
	}
}

// The classic providers' values read in Terraform's shape; an unknown
// value reads as known after apply.
func TestPulumiTerraformShape(t *testing.T) {
	t.Parallel()
	p := parsePulumiFile(t, "testdata/pulumi/ops.json")
	trainer := changeAt(t, p, "aws:ec2:Instance::trainer")
	a := trainer.After()
	for _, tc := range []struct {
		path []any
		want string
	}{
		{[]any{"instance_type"}, "p4d.24xlarge"},
		{[]any{"root_block_device", 0, "volume_size"}, "500"},
		{[]any{"tags", "costCenter"}, "research"}, // the user's tag keys stay as written
		{[]any{"arn"}, UnknownText},
	} {
		if got := a.Get(tc.path...).Display(); got != tc.want {
			t.Errorf("%v = %q, want %q", tc.path, got, tc.want)
		}
	}
	if a.Get("root_block_device", 0, "__defaults").Display() != "null" {
		t.Errorf("the bridge's __defaults is read as an attribute")
	}
	ng := changeAt(t, p, "aws:eks:NodeGroup::gpu")
	if got := ng.After().Get("taint", 0, "effect").Display(); got != "NO_SCHEDULE" {
		t.Errorf("the node group's taints are not its taint blocks: %q", got)
	}
	if got := ng.After().Get("scaling_config", 0, "desired_size").Display(); got != "2" {
		t.Errorf("scaling_config[0].desired_size = %q", got)
	}
	if got := ng.After().Get("labels", "nodeRole").Display(); got != "gpu" {
		t.Errorf("labels keep their keys: %q", got)
	}
	// A type no table maps keeps Pulumi's names.
	if got := changeAt(t, p, "aws:ec2:Vpc::shared").After().Get("cidrBlock").Display(); got != "10.0.0.0/16" {
		t.Errorf("an unmapped type's property: %q", got)
	}
}

// The provider a resource uses, and its region, are what infra reads a
// Terraform plan's provider blocks for.
func TestPulumiProviderRegions(t *testing.T) {
	t.Parallel()
	p := parsePulumiFile(t, "testdata/pulumi/ops.json")
	tests := map[string]string{"aws:ec2:Instance::trainer": "eu-west-1", "aws:s3:BucketV2::artifacts": "us-east-1"}
	for addr, want := range tests {
		pc := p.ProviderConfigFor(changeAt(t, p, addr))
		if pc == nil {
			t.Fatalf("%s: no provider", addr)
		}
		if got := pc.Expressions["region"].Constant.Display(); got != want {
			t.Errorf("%s: region %q, want %q", addr, got, want)
		}
	}
	var keys []string
	for k := range p.ProviderConfigs() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, " ") != "aws aws.west" {
		t.Errorf("provider blocks %v, want the two providers (the project's own config, ml:hfToken, is none)", keys)
	}
	// The stack's config gives a default provider its region when no
	// provider resource does.
	cfg := parsePreview(t, map[string]any{"config": map[string]any{"gcp:region": "europe-west4"}, "steps": []any{map[string]any{"op": "create",
		"urn": "urn:pulumi:dev::ml::gcp:compute/instance:Instance::vm", "newState": map[string]any{"custom": true, "type": "gcp:compute/instance:Instance",
			"inputs": map[string]any{"machineType": "g2-standard-4"}}}}})
	if pc := cfg.ProviderConfigFor(cfg.Changes[0]); pc == nil || pc.Expressions["region"].Constant.Display() != "europe-west4" {
		t.Errorf("the config's gcp:region is not the provider's region: %+v", pc)
	}
}

// An error diagnostic makes the preview errored, its message a check's
// problem; a warning does not.
func TestPulumiErrorDiagnostics(t *testing.T) {
	t.Parallel()
	step := map[string]any{"op": "same", "urn": "urn:pulumi:dev::ml::pulumi:pulumi:Stack::ml-dev"}
	tests := map[string]struct {
		severity string
		errored  bool
	}{
		"error":   {"error", true},
		"warning": {"warning", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := parsePreview(t, map[string]any{"steps": []any{step}, "diagnostics": []any{map[string]any{
				"urn": "urn:pulumi:dev::ml::aws:s3/bucketV2:BucketV2::artifacts", "message": "creating S3 bucket: AccessDenied", "severity": tc.severity}}})
			if p.Errored != tc.errored || len(p.Checks) != map[bool]int{true: 1, false: 0}[tc.errored] {
				t.Fatalf("errored %v with %d checks, want %v", p.Errored, len(p.Checks), tc.errored)
			}
			if tc.errored && (p.Checks[0].Address != "aws:s3:BucketV2::artifacts" || p.Checks[0].Problems[0] != "creating S3 bucket: AccessDenied") {
				t.Errorf("check %+v", p.Checks[0])
			}
		})
	}
}

// A document is a Pulumi preview by its steps' URNs; anything else without
// format_version stays no plan, and a bad step names itself.
func TestPulumiDetection(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		doc     string
		want    error
		mention string
	}{
		"steps without Pulumi URNs": {`{"steps":[{"op":"create","urn":"arn:aws:s3:::x"}]}`, ErrNotPlan, "format_version"},
		"an unknown op":             {`{"steps":[{"op":"explode","urn":"urn:pulumi:dev::ml::aws:s3/bucket:Bucket::b"}]}`, ErrNotPlan, `unknown op "explode"`},
		"a URN without a name":      {`{"steps":[{"op":"create","urn":"urn:pulumi:dev::ml"}]}`, ErrNotPlan, "is not a Pulumi URN"},
		"a step without an op":      {`{"steps":[{"urn":"urn:pulumi:dev::ml::aws:s3/bucket:Bucket::b"}]}`, ErrNotPlan, "format_version"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("x.json", []byte(tc.doc))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("got %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
	// The honest twin: the same step with an op and a URN is a preview.
	p, err := Parse("x.json", []byte(`{"steps":[{"op":"create","urn":"urn:pulumi:dev::ml::aws:s3/bucket:Bucket::b","newState":{"custom":true,"inputs":{"bucket":"b"}}}]}`))
	if err != nil || p.Tool != ToolPulumi || len(p.Changes) != 1 || p.Changes[0].Type != "aws_s3_bucket" {
		t.Fatalf("a one-step preview: %v %+v", err, p)
	}
}

func TestPulumiNames(t *testing.T) {
	t.Parallel()
	snake := map[string]string{"vmSize": "vm_size", "osDiskSizeGb": "os_disk_size_gb", "ipv4Address": "ipv4_address", "name": "name", "kubernetesClusterId": "kubernetes_cluster_id"}
	for in, want := range snake {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	display := map[string]string{"aws:s3/bucket:Bucket": "aws:s3:Bucket", "azure-native:compute/v20240701:VirtualMachine": "azure-native:compute:VirtualMachine",
		"azure-native:compute:VirtualMachine": "azure-native:compute:VirtualMachine", "ml:platform:Serving": "ml:platform:Serving",
		"kubernetes:apps/v1:Deployment": "kubernetes:apps/v1:Deployment"}
	for in, want := range display {
		if got := displayType(in); got != want {
			t.Errorf("displayType(%q) = %q, want %q", in, got, want)
		}
	}
	orig := map[string]any{"defaultNodePool": map[string]any{"vmSize": "x"}, "tags": map[string]any{"a.b": "c"}, "taints": []any{map[string]any{"key": "k"}}}
	paths := map[string]string{"defaultNodePool.vmSize": "default_node_pool[0].vm_size", `tags["a.b"]`: `tags["a.b"]`, "taints[0].key": "taint[0].key", "name": "name"}
	for in, want := range paths {
		if got := pathString(terraformPath(pulumiPath(in), orig)); got != want {
			t.Errorf("terraformPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// Pulumi's Kubernetes workloads read as kubernetes_manifest objects, Helm
// releases as helm_release values, native types by their unversioned token.
func TestPulumiKubernetesAndNativeTypes(t *testing.T) {
	t.Parallel()
	dep := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "llm"},
		"spec": map[string]any{"replicas": 2}}
	p := parsePreview(t, map[string]any{"steps": []any{
		map[string]any{"op": "create", "urn": "urn:pulumi:dev::ml::kubernetes:apps/v1:Deployment::llm", "newState": map[string]any{"custom": true, "inputs": dep}},
		map[string]any{"op": "create", "urn": "urn:pulumi:dev::ml::kubernetes:helm.sh/v3:Release::vllm", "newState": map[string]any{"custom": true,
			"inputs": map[string]any{"name": "vllm", "chart": "vllm", "values": map[string]any{"replicaCount": 2}}}},
		map[string]any{"op": "create", "urn": "urn:pulumi:dev::ml::azure-native:compute/v20240701:VirtualMachine::vm", "newState": map[string]any{"custom": true,
			"inputs": map[string]any{"hardwareProfile": map[string]any{"vmSize": "Standard_NC24ads_A100_v4"}}}},
	}})
	if got := p.Changes[0]; got.Type != "kubernetes_manifest" || got.After().Get("manifest", "spec", "replicas").Display() != "2" {
		t.Errorf("Deployment: %s %s", got.Type, got.After().Display())
	}
	if got := p.Changes[1]; got.Type != "helm_release" || got.After().Get("values", 0).Display() != `{"replicaCount":2}` {
		t.Errorf("Release: %s %s", got.Type, got.After().Display())
	}
	if got := p.Changes[2]; got.Type != "azure-native:compute:VirtualMachine" || got.After().Get("hardwareProfile", "vmSize").Display() != "Standard_NC24ads_A100_v4" {
		t.Errorf("native VM: %s %s", got.Type, got.After().Display())
	}
}
