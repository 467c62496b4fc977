package infra

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// TestTagIsTagsEntry holds Side.Tag and Side.Label, which read one key
// without decoding the others, to the entry of the whole map (Tags,
// Labels) for every key of every side, and for keys a side lacks, over
// the plan corpus, the generated plans and hand-made edge cases: a null,
// sensitive, unknown or secret-named tag, AKS pool tags over cluster tags,
// ASG tag blocks over tags, GKE node_config labels.
func TestTagIsTagsEntry(t *testing.T) {
	t.Parallel()
	edges := `{"format_version":"1.2","resource_changes":[
	  {"address":"azurerm_kubernetes_cluster.c","mode":"managed","type":"azurerm_kubernetes_cluster","name":"c","change":{"actions":["update"],
	    "before":{"location":"westeurope","tags":{"team":"ml","cost-center":"a","only-cluster":"x"},"default_node_pool":[{"name":"gpu","vm_size":"Standard_NC6s_v3","node_count":1,"tags":{"cost-center":"pool","nulled":null},"node_labels":{"gpu":"yes"}}]},
	    "after":{"location":"westeurope","tags":{"team":"ml","cost-center":"a","password":"hunter22"},"default_node_pool":[{"name":"gpu","vm_size":"Standard_NC6s_v3","node_count":1,"tags":{"cost-center":"pool","secret":"s"},"node_labels":{"gpu":"yes"}}]},
	    "after_unknown":{"tags":{"late":true}},"before_sensitive":{"tags":{"team":true}},"after_sensitive":{"default_node_pool":[{"tags":{"cost-center":true}}]}}},
	  {"address":"aws_autoscaling_group.a","mode":"managed","type":"aws_autoscaling_group","name":"a","change":{"actions":["update"],
	    "before":{"name":"a","min_size":1,"max_size":2,"tags_all":{"cost-center":"own","Name":"n"},"tag":[{"key":"cost-center","value":"block","propagate_at_launch":true}]},
	    "after":{"name":"a","min_size":1,"max_size":2,"tags":{"cost-center":"own"},"tags_all":null,"tag":[]},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}},
	  {"address":"aws_instance.i","mode":"managed","type":"aws_instance","name":"i","change":{"actions":["create"],"before":null,
	    "after":{"instance_type":"p4d.24xlarge","tags":{"cost-center":"x","Name":null,"n":1}},"after_unknown":{"tags_all":true},"after_sensitive":{}}},
	  {"address":"google_container_node_pool.p","mode":"managed","type":"google_container_node_pool","name":"p","change":{"actions":["create"],"before":null,
	    "after":{"name":"p","location":"us-central1-a","node_count":1,"node_config":[{"machine_type":"a2-highgpu-1g","labels":{"cost-center":"l","gpu":"a100"},"resource_labels":{"team":"t"}}]},
	    "after_unknown":{"node_config":[{"labels":{"late":true}}]},"after_sensitive":{}}}]}`
	plans := map[string][]byte{"edges": []byte(edges), "large": plantest.Large(300), "clusters": plantest.Clusters(300)}
	files, _ := filepath.Glob("../../shared/corpus/plans/*/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		plans[f] = data
	}
	keys := []string{"cost-center", "team", "Name", "absent", "password", "secret", "nulled", "late", "gpu", "only-cluster", "n"}
	checked := 0
	for name, data := range plans {
		p, err := planparse.Parse(name, data)
		if err != nil {
			if name == "edges" {
				t.Fatal(err)
			}
			continue
		}
		for _, r := range Analyze(p, nil, Options{}) {
			for _, s := range []*Side{r.Before, r.After} {
				tags, labels := s.Tags(), s.Labels()
				for _, k := range append(sortedKeys(tags, labels), keys...) {
					if got, want := s.Tag(k), tags[k]; got != want {
						t.Errorf("%s %s: Tag(%q) = %q, Tags()[%q] = %q", name, r.Address, k, got, k, want)
					}
					if got, want := s.Label(k), labels[k]; got != want {
						t.Errorf("%s %s: Label(%q) = %q, Labels()[%q] = %q", name, r.Address, k, got, k, want)
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d keys checked", checked)
	}
}

func sortedKeys(ms ...map[string]string) []string {
	var out []string
	for _, m := range ms {
		for k := range m {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
