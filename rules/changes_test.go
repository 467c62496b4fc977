package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// planCase is one table case of a built-in rule over a fixture plan.
type planCase struct {
	changes []change
	errored bool
	env     string
	cfg     string
	want    []string
}

func runPlanCases(t *testing.T, rule string, tests map[string]planCase) {
	t.Helper()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := mustConfig(t, tc.cfg)
			env := tc.env
			if env == "" {
				env = "prod"
			}
			p := Project{Name: "ml", Environment: env, Plan: plan(t, tc.errored, tc.changes...)}
			got := lines(only(rule, cfg.Evaluate([]Project{p}, nil).Findings))
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s findings (-want +got):\n%s", rule, diff)
			}
		})
	}
}

var (
	llmBefore = map[string]any{"name": "llm-prod", "endpoint_config_name": "llm-config", "arn": "arn:aws:sagemaker:us-east-1:123456789012:endpoint/llm-prod"}
	llmAfter  = map[string]any{"name": "llm-prod-v2", "endpoint_config_name": "llm-config"}
	renameLLM = change{addr: "aws_sagemaker_endpoint.llm", actions: replace, before: llmBefore, after: llmAfter,
		replace: []string{"name"}, reason: "replace_because_cannot_update"}
)

func TestEndpointReplacement(t *testing.T) {
	t.Parallel()
	const renamed = "aws_sagemaker_endpoint.llm: SageMaker endpoint `llm-prod` is destroyed and recreated (`name` \"llm-prod\" -> \"llm-prod-v2\" forces the replacement), so it stops serving until the new one is in service"
	runPlanCases(t, RuleEndpointReplacement, map[string]planCase{
		"SageMaker endpoint renamed in prod": {
			changes: []change{renameLLM},
			want:    []string{"block endpoint-replacement " + renamed},
		},
		"SageMaker endpoint renamed in staging": {
			env:     "staging",
			changes: []change{renameLLM},
			want:    []string{"warn endpoint-replacement " + renamed},
		},
		"declared protected environment": {
			env:     "live",
			cfg:     "version: 1\nenvironments:\n  live: {protected: true}\n",
			changes: []change{renameLLM},
			want:    []string{"block endpoint-replacement " + renamed},
		},
		"create before destroy": {
			changes: []change{{addr: "aws_sagemaker_endpoint.llm", actions: cbd, before: llmBefore, after: llmAfter, replace: []string{"name"}}},
			want:    []string{"block endpoint-replacement aws_sagemaker_endpoint.llm: SageMaker endpoint `llm-prod` is destroyed and recreated (`name` \"llm-prod\" -> \"llm-prod-v2\" forces the replacement); callers of the old one break when it is deleted"},
		},
		"endpoint configuration replaced under a live endpoint": {
			changes: []change{
				{addr: "aws_sagemaker_endpoint_configuration.llm", actions: replace, replace: []string{"production_variants"},
					before: map[string]any{"name": "llm-config", "production_variants": []any{map[string]any{"instance_type": "ml.g5.2xlarge"}}},
					after:  map[string]any{"name": "llm-config", "production_variants": []any{map[string]any{"instance_type": "ml.g5.4xlarge"}}}},
				{addr: "aws_sagemaker_endpoint.llm", actions: update, before: llmBefore, after: llmBefore},
			},
			want: []string{"block endpoint-replacement aws_sagemaker_endpoint_configuration.llm: SageMaker endpoint configuration `llm-config` is destroyed and recreated (`production_variants` forces the replacement) while endpoint `llm-prod` uses it; the endpoint cannot update or scale until it points at the new configuration"},
		},
		"blue/green: a new configuration created first, the endpoint updated in place onto it": {
			changes: []change{
				{addr: "aws_sagemaker_endpoint_configuration.llm", actions: cbd, replace: []string{"name"},
					before: map[string]any{"name": "llm-config", "production_variants": []any{map[string]any{"instance_type": "ml.g5.2xlarge"}}},
					after:  map[string]any{"name": "llm-config-2", "production_variants": []any{map[string]any{"instance_type": "ml.g5.4xlarge"}}}},
				{addr: "aws_sagemaker_endpoint.llm", actions: update, before: llmBefore,
					after: map[string]any{"name": "llm-prod", "endpoint_config_name": "llm-config-2"}},
			},
		},
		"blue/green with name_prefix: the new configuration's name known after apply": {
			changes: []change{
				{addr: "aws_sagemaker_endpoint_configuration.llm", actions: cbd, replace: []string{"production_variants"},
					before: map[string]any{"name": "llm-config"}, after: map[string]any{}, unknown: map[string]any{"name": true}},
				{addr: "aws_sagemaker_endpoint.llm", actions: update, before: llmBefore,
					after: map[string]any{"name": "llm-prod"}, unknown: map[string]any{"endpoint_config_name": true}},
			},
		},
		"the old configuration deleted first while the endpoint moves off it": {
			changes: []change{
				{addr: "aws_sagemaker_endpoint_configuration.llm", actions: replace, replace: []string{"name"},
					before: map[string]any{"name": "llm-config"}, after: map[string]any{"name": "llm-config-2"}},
				{addr: "aws_sagemaker_endpoint.llm", actions: update, before: llmBefore,
					after: map[string]any{"name": "llm-prod", "endpoint_config_name": "llm-config-2"}},
			},
			want: []string{"block endpoint-replacement aws_sagemaker_endpoint_configuration.llm: SageMaker endpoint configuration `llm-config` is destroyed and recreated (`name` \"llm-config\" -> \"llm-config-2\" forces the replacement) while endpoint `llm-prod` uses it; the endpoint cannot update or scale until it points at the new configuration"},
		},
		"Vertex AI endpoint replaced": {
			changes: []change{{addr: "google_vertex_ai_endpoint.chat", actions: replace, replace: []string{"region"},
				before: map[string]any{"name": "chat", "region": "us-central1"}, after: map[string]any{"name": "chat", "region": "europe-west4"}}},
			want: []string{"block endpoint-replacement google_vertex_ai_endpoint.chat: Vertex AI endpoint `chat` is destroyed and recreated (`region` \"us-central1\" -> \"europe-west4\" forces the replacement), so it stops serving until the new one is in service"},
		},
		"Azure ML online deployment through azapi": {
			changes: []change{{addr: "azapi_resource.blue", actions: replace, reason: "replace_because_cannot_update",
				before: map[string]any{"name": "blue", "type": "Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments@2024-04-01"},
				after:  map[string]any{"name": "blue", "type": "Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments@2024-04-01"}}},
			want: []string{"block endpoint-replacement azapi_resource.blue: Azure ML online deployment `blue` is destroyed and recreated (an attribute that cannot be updated in place changed), so it stops serving until the new one is in service"},
		},
		"extra endpoint type from config": {
			cfg: "version: 1\nrules:\n  endpoint-replacement:\n    extra_types: [kubernetes_manifest]\n",
			changes: []change{{addr: "kubernetes_manifest.isvc", actions: replace,
				before: map[string]any{"manifest": map[string]any{}}, after: map[string]any{"manifest": map[string]any{}}}},
			want: []string{"block endpoint-replacement kubernetes_manifest.isvc: endpoint `isvc` is destroyed and recreated (the plan does not say which attribute forces it), so it stops serving until the new one is in service"},
		},
		"endpoint updated in place": {
			changes: []change{{addr: "aws_sagemaker_endpoint.llm", actions: update, before: llmBefore, after: map[string]any{"name": "llm-prod", "endpoint_config_name": "llm-config-2"}}},
		},
		"new endpoint": {
			changes: []change{{addr: "aws_sagemaker_endpoint.llm", actions: create, after: llmAfter}},
		},
		"endpoint configuration replaced with no endpoint using it": {
			changes: []change{{addr: "aws_sagemaker_endpoint_configuration.llm", actions: replace, replace: []string{"name"},
				before: map[string]any{"name": "llm-config"}, after: map[string]any{"name": "llm-config-2"}}},
		},
		"endpoint configuration replaced along with its endpoint": {
			changes: []change{
				{addr: "aws_sagemaker_endpoint_configuration.llm", actions: replace, before: map[string]any{"name": "llm-config"}, after: map[string]any{"name": "llm-config"}},
				{addr: "aws_sagemaker_endpoint.llm", actions: create, after: llmAfter},
			},
		},
		"other resource replaced": {
			changes: []change{{addr: "aws_instance.web", actions: replace, before: map[string]any{"ami": "a"}, after: map[string]any{"ami": "b"}}},
		},
	})
}

func TestStatefulDelete(t *testing.T) {
	t.Parallel()
	runPlanCases(t, RuleStatefulDelete, map[string]planCase{
		"bucket deleted": {
			changes: []change{{addr: "aws_s3_bucket.artifacts", actions: del, before: map[string]any{"bucket": "ml-artifacts"}}},
			want:    []string{"block stateful-delete aws_s3_bucket.artifacts: S3 bucket `ml-artifacts` is deleted, and the data in it with it"},
		},
		"storage account replaced": {
			changes: []change{{addr: "azurerm_storage_account.data", actions: replace, replace: []string{"account_replication_type"},
				before: map[string]any{"name": "mldata", "account_replication_type": "LRS"}, after: map[string]any{"name": "mldata", "account_replication_type": "ZRS"}}},
			want: []string{"block stateful-delete azurerm_storage_account.data: storage account `mldata` is destroyed and recreated (`account_replication_type` \"LRS\" -> \"ZRS\" forces the replacement), so the data in it is lost"},
		},
		"a forcing attribute whose value stays is named without values": {
			changes: []change{{addr: "azurerm_storage_account.data", actions: replace, replace: []string{"location"},
				before: map[string]any{"name": "mldata", "location": "westeurope"}, after: map[string]any{"name": "mldata", "location": "westeurope"}}},
			want: []string{"block stateful-delete azurerm_storage_account.data: storage account `mldata` is destroyed and recreated (`location` forces the replacement), so the data in it is lost"},
		},
		"a nested forcing attribute and one known only after apply": {
			changes: []change{{addr: "azurerm_storage_account.data", actions: replace, replace: []string{"network_rules.default_action", "location"},
				before: map[string]any{"name": "mldata", "location": "westeurope", "network_rules": map[string]any{"default_action": "Allow"}},
				after:  map[string]any{"name": "mldata", "network_rules": map[string]any{"default_action": "Deny"}}, unknown: map[string]any{"location": true}}},
			want: []string{"block stateful-delete azurerm_storage_account.data: storage account `mldata` is destroyed and recreated (`network_rules.default_action` \"Allow\" -> \"Deny\", `location` force the replacement), so the data in it is lost"},
		},
		"database deleted": {
			changes: []change{{addr: "aws_db_instance.meta", actions: del, before: map[string]any{"identifier": "mlflow"}}},
			want:    []string{"block stateful-delete aws_db_instance.meta: RDS database `meta` is deleted, and the data in it with it"},
		},
		"disk deleted": {
			changes: []change{{addr: "google_compute_disk.scratch", actions: del, before: map[string]any{"name": "scratch-0"}}},
			want:    []string{"block stateful-delete google_compute_disk.scratch: persistent disk `scratch-0` is deleted, and the data in it with it"},
		},
		"managed disk warns where configured": {
			env:     "staging",
			cfg:     "version: 1\nrules:\n  stateful-delete:\n    environments: {staging: warn}\n",
			changes: []change{{addr: "azurerm_managed_disk.d", actions: del, before: map[string]any{"name": "d"}}},
			want:    []string{"warn stateful-delete azurerm_managed_disk.d: managed disk `d` is deleted, and the data in it with it"},
		},
		"extra stateful type": {
			cfg:     "version: 1\nrules:\n  stateful-delete:\n    extra_types: [aws_sagemaker_feature_group]\n",
			changes: []change{{addr: "aws_sagemaker_feature_group.f", actions: del, before: map[string]any{"feature_group_name": "f"}}},
			want:    []string{"block stateful-delete aws_sagemaker_feature_group.f: aws_sagemaker_feature_group `f` is deleted, and the data in it with it"},
		},
		"lifecycle-only change to a bucket": {
			changes: []change{
				{addr: "aws_s3_bucket.artifacts", actions: noop, before: map[string]any{"bucket": "ml-artifacts"}, after: map[string]any{"bucket": "ml-artifacts"}},
				{addr: "aws_s3_bucket_lifecycle_configuration.artifacts", actions: update,
					before: map[string]any{"rule": []any{map[string]any{"id": "expire", "expiration": []any{map[string]any{"days": 30}}}}},
					after:  map[string]any{"rule": []any{map[string]any{"id": "expire", "expiration": []any{map[string]any{"days": 14}}}}}},
			},
		},
		"bucket tags updated in place": {
			changes: []change{{addr: "aws_s3_bucket.artifacts", actions: update, before: map[string]any{"bucket": "b", "tags": map[string]any{}},
				after: map[string]any{"bucket": "b", "tags": map[string]any{"team": "ml"}}}},
		},
		"bucket forgotten, not deleted": {
			changes: []change{{addr: "aws_s3_bucket.artifacts", actions: []string{"forget"}, before: map[string]any{"bucket": "b"}}},
		},
		"new bucket": {
			changes: []change{{addr: "aws_s3_bucket.artifacts", actions: create, after: map[string]any{"bucket": "b"}}},
		},
		"stateless resource deleted": {
			changes: []change{{addr: "aws_instance.web", actions: del, before: map[string]any{"ami": "a"}}},
		},
	})
}

func TestIAMAdmin(t *testing.T) {
	t.Parallel()
	const starDoc = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`
	const scoped = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":"arn:aws:s3:::ml/*"}]}`
	runPlanCases(t, RuleIAMAdmin, map[string]planCase{
		"AdministratorAccess attached to a role": {
			changes: []change{{addr: "aws_iam_role_policy_attachment.admin", actions: create,
				after: map[string]any{"role": "trainer", "policy_arn": "arn:aws:iam::aws:policy/AdministratorAccess"}}},
			want: []string{"block iam-admin aws_iam_role_policy_attachment.admin: IAM role `trainer` gets AdministratorAccess"},
		},
		"inline role policy allowing * on *": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: create, after: map[string]any{"role": "trainer", "policy": starDoc}}},
			want:    []string{"block iam-admin aws_iam_role_policy.p: IAM role `trainer` allows every action on every resource (Allow * on *)"},
		},
		"managed policy with a single statement object and list of actions": {
			changes: []change{{addr: "aws_iam_policy.ops", actions: update,
				before: map[string]any{"name": "ops", "policy": scoped},
				after:  map[string]any{"name": "ops", "policy": `{"Statement":{"Effect":"Allow","Action":["s3:*","*"],"Resource":["*"]}}`}}},
			want: []string{"block iam-admin aws_iam_policy.ops: IAM policy `ops` allows every action on every resource (Allow * on *)"},
		},
		"role with managed_policy_arns": {
			changes: []change{{addr: "aws_iam_role.r", actions: create,
				after: map[string]any{"name": "r", "managed_policy_arns": []any{"arn:aws:iam::aws:policy/AdministratorAccess"}}}},
			want: []string{"block iam-admin aws_iam_role.r: IAM role `r` gets AdministratorAccess"},
		},
		"group with policy_arns (aws_iam_group_policy_attachments_exclusive)": {
			changes: []change{{addr: "aws_iam_group_policy_attachments_exclusive.g", actions: create,
				after: map[string]any{"group_name": "ops", "policy_arns": []any{"arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::aws:policy/AdministratorAccess"}}}},
			want: []string{"block iam-admin aws_iam_group_policy_attachments_exclusive.g: the IAM group of `aws_iam_group_policy_attachments_exclusive.g` gets AdministratorAccess"},
		},
		"role with an inline_policy block allowing * on *": {
			changes: []change{{addr: "aws_iam_role.r", actions: create,
				after: map[string]any{"name": "r", "inline_policy": []any{map[string]any{"name": "ro", "policy": scoped}, map[string]any{"name": "all", "policy": starDoc}}}}},
			want: []string{"block iam-admin aws_iam_role.r: IAM role `r` allows every action on every resource (Allow * on *)"},
		},
		"GCP project owner": {
			changes: []change{{addr: "google_project_iam_member.o", actions: create,
				after: map[string]any{"project": "ml", "role": "roles/owner", "member": "serviceAccount:ci@ml.iam.gserviceaccount.com"}}},
			want: []string{"block iam-admin google_project_iam_member.o: `serviceAccount:ci@ml.iam.gserviceaccount.com` gets roles/owner"},
		},
		"Azure Owner role assignment": {
			changes: []change{{addr: "azurerm_role_assignment.o", actions: create,
				after: map[string]any{"role_definition_name": "Owner", "principal_id": "0000"}}},
			want: []string{"block iam-admin azurerm_role_assignment.o: principal `0000` gets the Owner role"},
		},
		"role known only after apply": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: create, after: map[string]any{"policy": starDoc}}},
			want:    []string{"block iam-admin aws_iam_role_policy.p: the IAM role of `aws_iam_role_policy.p` allows every action on every resource (Allow * on *)"},
		},
		"group policy": {
			changes: []change{{addr: "aws_iam_group_policy.g", actions: create, after: map[string]any{"group": "admins", "policy": starDoc}}},
			want:    []string{"block iam-admin aws_iam_group_policy.g: IAM group `admins` allows every action on every resource (Allow * on *)"},
		},
		"scoped policy": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: create, after: map[string]any{"role": "trainer", "policy": scoped}}},
		},
		"Deny * on *": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: create,
				after: map[string]any{"role": "trainer", "policy": `{"Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}`}}},
		},
		"Allow * on one bucket": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: create,
				after: map[string]any{"role": "trainer", "policy": `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"arn:aws:s3:::ml"}]}`}}},
		},
		"admin grant that already existed": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: update,
				before: map[string]any{"role": "trainer", "policy": starDoc, "name": "a"}, after: map[string]any{"role": "trainer", "policy": starDoc, "name": "b"}}},
		},
		"admin attachment removed": {
			changes: []change{{addr: "aws_iam_role_policy_attachment.admin", actions: del,
				before: map[string]any{"role": "trainer", "policy_arn": "arn:aws:iam::aws:policy/AdministratorAccess"}}},
		},
		"ReadOnlyAccess": {
			changes: []change{{addr: "aws_iam_role_policy_attachment.ro", actions: create,
				after: map[string]any{"role": "trainer", "policy_arn": "arn:aws:iam::aws:policy/ReadOnlyAccess"}}},
		},
		"malformed policy JSON": {
			changes: []change{{addr: "aws_iam_role_policy.p", actions: create, after: map[string]any{"role": "trainer", "policy": "{not json"}}},
		},
	})
}

func TestPlanErrored(t *testing.T) {
	t.Parallel()
	runPlanCases(t, RulePlanErrored, map[string]planCase{
		"errored plan": {
			errored: true,
			want:    []string{"block plan-errored : the plan of project `ml` (plan.json) errored part way, so its list of changes is incomplete and cannot be reviewed"},
		},
		"errored plan in an environment where everything else is relaxed": {
			errored: true,
			env:     "dev",
			cfg:     "version: 1\nenvironments:\n  dev: {}\n",
			want:    []string{"block plan-errored : the plan of project `ml` (plan.json) errored part way, so its list of changes is incomplete and cannot be reviewed"},
		},
		"complete plan": {},
	})
}

// TestAllowsStarOnStar covers the policy texts the quick test before the
// decode must not misjudge: escaped stars and words, one star, no Allow.
func TestAllowsStarOnStar(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		doc  string
		want bool
	}{
		"allow star on star":               {`{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`, true},
		"allow *:* on star, one statement": {`{"Statement":{"Effect":"Allow","Action":["s3:*","*:*"],"Resource":["*"]}}`, true},
		"escaped star":                     {`{"Statement":[{"Effect":"Allow","Action":"\u002a","Resource":"*"}]}`, true},
		"escaped Allow":                    {`{"Statement":[{"Effect":"\u0041llow","Action":"*","Resource":"*"}]}`, true},
		"lower-case keys":                  {`{"statement":[{"effect":"Allow","action":"*","resource":"*"}]}`, true},
		"one star":                         {`{"Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`, false},
		"deny star on star":                {`{"Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}`, false},
		"stars elsewhere":                  {`{"Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"arn:aws:s3:::b/*"}]}`, false},
		"not JSON":                         {`Allow * *`, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := allowsStarOnStar(tc.doc); got != tc.want {
				t.Errorf("allowsStarOnStar(%s) = %v, want %v", tc.doc, got, tc.want)
			}
		})
	}
}

// A resource infra sees as a serving endpoint is guarded whatever its
// type; one of the same type that infra sees otherwise is not.
func TestEndpointReplacementOfWhatInfraCallsAnEndpoint(t *testing.T) {
	t.Parallel()
	p := plan(t, false,
		change{addr: "example_serving.chat", actions: replace, before: map[string]any{"name": "chat"}, after: map[string]any{"name": "chat-2"}, replace: []string{"name"}},
		change{addr: "example_serving.batch", actions: replace, before: map[string]any{"name": "batch"}, after: map[string]any{"name": "batch-2"}, replace: []string{"name"}})
	res := []*infra.Resource{
		{Address: "example_serving.chat", Type: "example_serving", Kind: infra.KindEndpoint, Action: planparse.ActionReplace},
		{Address: "example_serving.batch", Type: "example_serving", Kind: infra.KindVM, Action: planparse.ActionReplace},
	}
	got := lines(only(RuleEndpointReplacement, DefaultConfig().Evaluate([]Project{{Name: "ml", Environment: "prod", Plan: p, Resources: res}}, nil).Findings))
	want := []string{"block endpoint-replacement example_serving.chat: endpoint `chat` is destroyed and recreated (`name` \"chat\" -> \"chat-2\" forces the replacement), so it stops serving until the new one is in service"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("endpoint-replacement findings (-want +got):\n%s", diff)
	}
}
