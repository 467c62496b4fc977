package rules

import (
	"fmt"
	"strings"
	"testing"
)

// TestLintTypeChecksCustomRules: an expression that compiles but cannot
// hold for the change it runs on is an error at validate time, on the
// when line, instead of a warning on every change; expressions that are
// sound (the honest twins) pass.
func TestLintTypeChecksCustomRules(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		when string
		want string // substring of the one error; "" means none
	}{
		"a misspelled key":                {`change.sku.gpu_modell.contains("H100")`, `custom rule "r" does not type-check: no key "gpu_modell" here (did you mean "gpu_model"?) (line 1, column 11 of the expression)`},
		"a string compared with a number": {`change.sku.name > 5`, `found no matching overload for '_>_' applied to '(string, int)'`},
		"a string method on a number":     {`change.gpus.startsWith("8")`, "no matching overload for 'startsWith' applied to 'double.(string)'"},
		"a number where a verdict goes":   {`change.gpus`, "expected a true/false expression, got one of type double"},
		"a project key that is not there": {`project.env == "dev"`, `no key "env" here`},
		"the docs' example":               {`change.sku.gpu_model.contains("H100") && project.environment == "dev"`, ""},
		"a whole-number equality":         {`change.gpus == 4`, ""},
		"a cost guarded by has":           {`has(change.cost.hourly_delta) && change.cost.hourly_delta > 50`, ""},
		"an attribute of the plan":        {`change.after.acl == "public-read" && change.before.tags.team == "ml"`, ""},
		"a tag with a dash":               {`change.tags['cost-center'] == 'ml' || change.labels.team == 'ml'`, ""},
		"a list of paths":                 {`'name' in change.replace_paths && change.sku_before.has_gpu`, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			yml := fmt.Sprintf("version: 1\ncustom_rules:\n  - id: r\n    message: m\n    when: %q\n", tc.when)
			c, err := ParseConfig("planwarden.yml", []byte(yml))
			if err != nil {
				t.Fatalf("ParseConfig refuses it already: %v", err)
			}
			errs, warns := Lint(c, []byte(yml), LintOptions{})
			if len(warns) > 0 {
				t.Errorf("warnings %v", warns)
			}
			if tc.want == "" {
				if len(errs) > 0 {
					t.Errorf("errors %v, want none", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Message, tc.want) {
				t.Fatalf("errors %v, want one saying %q", errs, tc.want)
			}
			if !strings.HasSuffix(errs[0].Message, "fix the expression (docs/config.md, \"What the expression sees\", lists the keys of change and project and their types), else it warns on every change") {
				t.Errorf("error %q does not say what to do", errs[0].Message)
			}
			if errs[0].Line != 5 || errs[0].Path != "custom_rules[0].when" || !strings.HasPrefix(errs[0].Message, "custom_rules[0].when: ") {
				t.Errorf("error at line %d, path %q: want line 5, custom_rules[0].when", errs[0].Line, errs[0].Path)
			}
		})
	}
}

// TestLintWarnsOnSKUsNoCatalogKnows: an allowed_skus entry the catalog does
// not know would match nothing as written; a known one, or a pattern that
// matches catalog SKUs, passes.
func TestLintWarnsOnSKUsNoCatalogKnows(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		entry string
		want  string // substring of the one warning; "" means none
	}{
		"a known Azure SKU":       {"Standard_NC24ads_A100_v4", ""},
		"a known EC2 type":        {"p4d.24xlarge", ""},
		"a known SageMaker type":  {"ml.g5.2xlarge", ""},
		"a pattern that matches":  {"Standard_NC*", ""},
		"a typo of a known SKU":   {"Standard_NC24ads_A100_v5", `environments.prod.allowed_skus[0]: SKU "Standard_NC24ads_A100_v5" is not in planwarden's catalog, so nothing will match it exactly as written (did you mean "Standard_NC24ads_A100_v4"?)`},
		"a pattern matching none": {"Standrd_NC*", `pattern "Standrd_NC*" matches no SKU planwarden's catalog knows`},
		"a name no catalog has":   {"my-own-vm", `SKU "my-own-vm" is not in planwarden's catalog`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			yml := fmt.Sprintf("version: 1\nenvironments:\n  prod:\n    protected: true\n    allowed_skus:\n      - %q\n", tc.entry)
			c, err := ParseConfig("planwarden.yml", []byte(yml))
			if err != nil {
				t.Fatal(err)
			}
			errs, warns := Lint(c, []byte(yml), LintOptions{})
			if len(errs) > 0 {
				t.Errorf("errors %v", errs)
			}
			if tc.want == "" {
				if len(warns) > 0 {
					t.Errorf("warnings %v, want none", warns)
				}
				return
			}
			if len(warns) != 1 || !strings.Contains(warns[0].Message, tc.want) || warns[0].Line != 6 {
				t.Errorf("warnings %v, want one on line 6 saying %q", warns, tc.want)
			}
		})
	}
}

// TestLintFindsMissingDirectories: a project whose directory is not in the
// repository is an error naming the line, with the directory beside it
// that was probably meant.
func TestLintFindsMissingDirectories(t *testing.T) {
	t.Parallel()
	repo := map[string][]string{"": {"examples", "modules"}, "examples": {"aks-gpu", "sagemaker-endpoint"}}
	dir := func(d string) (bool, []string) {
		parent, base := "", d
		if i := strings.LastIndex(d, "/"); i >= 0 {
			parent, base = d[:i], d[i+1:]
		}
		for _, s := range repo[parent] {
			if s == base {
				return true, repo[parent]
			}
		}
		return false, repo[parent]
	}
	yml := "version: 1\nprojects:\n  - name: aks\n    directory: examples/aks-gpu\n  - name: sm\n    directory: examples/sagemaker\n  - name: root\n"
	c, err := ParseConfig("planwarden.yml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	errs, _ := Lint(c, []byte(yml), LintOptions{Dir: dir})
	want := `projects[1].directory: directory "examples/sagemaker" does not exist in the repository (did you mean "examples/sagemaker-endpoint"?)`
	if len(errs) != 1 || errs[0].Message != want || errs[0].Line != 6 {
		t.Fatalf("errors %v, want one on line 6: %s", errs, want)
	}
	// Without a repository to look at, directories are not judged.
	if errs, _ := Lint(c, []byte(yml), LintOptions{}); len(errs) != 0 {
		t.Errorf("errors %v without Dir", errs)
	}
}
