package planparse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The plan's configuration says which modules the root module calls;
// the app widens a project's paths with the local ones. A remote source
// may carry a token in its URL: it is never kept.
func TestModuleCalls(t *testing.T) {
	t.Parallel()
	plan := `{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[],
"configuration":{"root_module":{"module_calls":{
  "pool":{"source":"../../modules/gpu-pool","module":{"module_calls":{
     "taint":{"source":"./taint","module":{}},
     "vpc":{"source":"terraform-aws-modules/vpc/aws","module":{"module_calls":{"sub":{"source":"./modules/sub","module":{}}}}}}}},
  "net":{"source":"git::https://oauth2:ghp_secret@github.com/acme/net.git","module":{}}}}}}`
	p, err := Parse("plan.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	want := []ModuleCall{
		{Address: "module.net", Caller: "", Source: ""},
		{Address: "module.pool", Caller: "", Source: "../../modules/gpu-pool"},
		{Address: "module.pool.module.taint", Caller: "module.pool", Source: "./taint"},
		{Address: "module.pool.module.vpc", Caller: "module.pool", Source: ""},
		{Address: "module.pool.module.vpc.module.sub", Caller: "module.pool.module.vpc", Source: "./modules/sub"},
	}
	if diff := cmp.Diff(want, p.ModuleCalls()); diff != "" {
		t.Errorf("ModuleCalls (-want +got):\n%s", diff)
	}
	none, err := Parse("plan.json", []byte(`{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := none.ModuleCalls(); got != nil {
		t.Errorf("a plan without configuration: ModuleCalls = %v, want nil", got)
	}
}
