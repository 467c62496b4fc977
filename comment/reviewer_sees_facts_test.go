package comment

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// factCorpus and the bundled examples and 20 corpus plans with GPUs, tags
// and replacements (of ../shared/corpus/plans) are the plans whose facts the
// allow-list must leave visible.
var factCorpus = []string{
	// GPUs.
	"terraform-validator/full_compute_instance.tfplan.json",
	"terraform-validator/full_container_node_pool.tfplan.json",
	// Replacements.
	"checkov/terraform__runner__resources__plan_with_deleted_resources.json",
	"terraform-json/action_reason.json",
	"tofu-show-json/requires-replace.json",
	"tofu-equivalence/replace_within_object.json",
	"tofu-equivalence/simple_object_replace.json",
	"tofu-equivalence/local_provider_update.json",
	"tofu-equivalence/replace_within_set.json",
	"tofu-equivalence/replace_within_list.json",
	"tofu-equivalence/replace_within_map.json",
	"terraform-json/config_resource_depends_on.json",
	// Tags.
	"terraform-compliance/test_issue-127.json",
	"terraform-compliance/test_pull_330.json",
	"terraform-compliance/test_issue-294.json",
	"terracost/azurerm.json",
	"terracost/google.json",
	"terracost/aws__terraform-noprior-plan.json",
	"regula/examples__aws__inputs__tag_all_resources_infra.json",
	"infracost/breakdown_with_policy_data_upload_plan_json.json",
}

// factKind says which fact a reviewer reads from an attribute path, "" for
// none: a SKU, a count, a region, a tag, a name or an id.
func factKind(path string) string {
	steps := strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '[' || r == ']' })
	for _, s := range steps {
		switch s {
		case "tags", "tags_all", "labels", "resource_labels", "user_labels", "node_labels":
			return "tag"
		}
	}
	last := ""
	for i := len(steps) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(steps[i]); err != nil {
			last = steps[i]
			break
		}
	}
	switch last {
	case "instance_type", "instance_types", "vm_size", "machine_type", "size", "sku", "sku_name", "node_type",
		"instance_class", "accelerator_type", "vmSize", "type_name":
		return "sku"
	case "count", "node_count", "desired_size", "min_size", "max_size", "instance_count", "initial_instance_count",
		"min_count", "max_count", "desired_capacity", "min_capacity", "max_capacity", "replicas", "capacity",
		"accelerator_count", "gpu_count", "initial_node_count", "min_node_count", "max_node_count":
		return "count"
	case "region", "location", "zone", "availability_zone", "availability_zones", "zones":
		return "region"
	case "name":
		return "name"
	case "id":
		return "id"
	}
	switch {
	case strings.HasSuffix(last, "_name"):
		return "name"
	case strings.HasSuffix(last, "_id"), strings.HasSuffix(last, "_ids"):
		return "id"
	}
	return ""
}

// factText is how a side of a fact reads in a diff line, or "" when the
// value is no fact to check (null, hidden by a mark or a name, unknown).
func factText(v planparse.Value) string {
	switch {
	case v.IsNull(), v.IsSensitive(), v.IsUnknown():
		return ""
	}
	if s, ok := v.Str(); ok {
		if len(s) > maxValue-2 {
			return "" // cut in any case
		}
		return strconv.Quote(s)
	}
	if d := v.Display(); len(d) > maxValue || strings.Contains(d, planparse.SensitiveText) || strings.Contains(d, planparse.UnknownText) {
		return "" // cut, or partly hidden by marks
	}
	return v.Display()
}

func skuOf(s *infra.Side) string {
	if s == nil {
		return ""
	}
	return s.SKU
}

var diffLineRE = regexp.MustCompile(`(?m)^[-+~] .*$`)

// A reviewer still sees every SKU, count, region, tag, name and id change
// of the bundled examples and the chosen corpus plans: each side of each
// such attribute change is in its diff line as the plan has it, and each
// SKU infra reads is in the comment.
func TestReviewerSeesEveryFact(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../examples/plans/*.json")
	files = append(files, "../examples/bicep-gpu-vm/whatif-typo.json")
	corpus := filepath.Join("..", "..", "shared", "corpus", "plans")
	if _, err := os.Stat(corpus); err != nil {
		t.Logf("../shared/corpus/plans is absent (%v): checking the bundled examples only", err)
	} else {
		for _, f := range factCorpus {
			files = append(files, filepath.Join(corpus, f))
		}
	}
	counts := map[string]int{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := planparse.Parse(filepath.Base(f), data)
			if err != nil {
				t.Fatal(err)
			}
			r := review.Build([]review.Input{{Name: "p", Plan: plan}}, review.Options{DigestKey: []byte("facts")})
			body := Render(r, Options{})
			if strings.Contains(body, "Shortened to fit") {
				t.Fatalf("the comment of %s is shortened: pick a smaller plan", f)
			}
			lines := map[string]string{}
			for _, l := range diffLineRE.FindAllString(body, -1) {
				if path, _, ok := strings.Cut(l[2:], " = "); ok {
					lines[path] += l + "\n"
				}
			}
			for _, c := range plan.Changes {
				if c.Action == planparse.ActionNoop {
					continue
				}
				for _, d := range c.Diff() {
					kind := factKind(d.Path)
					if kind == "" {
						continue
					}
					line := lines[planparse.ShownPath(d.Path)]
					for _, side := range []planparse.Value{d.Before, d.After} {
						want := factText(side)
						if want == "" {
							continue
						}
						counts[kind]++
						if !strings.Contains(line, want) {
							t.Errorf("%s: the %s %s = %s is not in the comment (its line: %q)", c.Address, kind, d.Path, want, line)
						}
					}
				}
			}
			for _, res := range r.Projects[0].Resources {
				if skuOf(res.Before) == skuOf(res.After) {
					continue // the comment names a SKU where it changes
				}
				for _, s := range []string{skuOf(res.Before), skuOf(res.After)} {
					if s == "" || s == planparse.UnknownText {
						continue
					}
					counts["sku (infra)"]++
					if !strings.Contains(body, "`"+s+"`") {
						t.Errorf("%s: SKU %s is not in the comment", res.Address, s)
					}
				}
			}
		})
	}
	t.Logf("facts checked: %v", counts)
}
