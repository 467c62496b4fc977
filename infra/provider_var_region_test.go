package infra

import (
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// A provider block that takes its region from a root variable
// (region = var.region) prices in the region the plan was made for; a
// module's variable, a sensitive one and any other expression leave the
// region unknown rather than guessed.
func TestProviderRegionFromRootVariable(t *testing.T) {
	t.Parallel()
	provider := func(key, module, refs string) string {
		m := ""
		if module != "" {
			m = `,"module_address":"` + module + `"`
		}
		return `"` + key + `":{"name":"aws","full_name":"registry.terraform.io/hashicorp/aws"` + m + `,"expressions":{"region":{"references":` + refs + `}}}`
	}
	plan := `{"format_version":"1.2","terraform_version":"1.9.5",
"variables":{"region":{"value":"eu-west-1"},"secret_region":{"value":"ap-south-1"},"cfg":{"value":{"region":"us-west-2"}}},
"configuration":{"provider_config":{` +
		provider("aws", "", `["var.region"]`) + `,` +
		provider("aws.hidden", "", `["var.secret_region"]`) + `,` +
		provider("aws.object", "", `["var.cfg.region","var.cfg"]`) + `,` +
		provider("module.m:aws", "module.m", `["var.region"]`) + `},
"root_module":{"variables":{"region":{},"secret_region":{"sensitive":true},"cfg":{}},"resources":[
 {"address":"aws_instance.hidden","mode":"managed","type":"aws_instance","name":"hidden","provider_config_key":"aws.hidden"},
 {"address":"aws_instance.object","mode":"managed","type":"aws_instance","name":"object","provider_config_key":"aws.object"}],
 "module_calls":{"m":{"module":{"resources":[{"address":"aws_instance.mod","mode":"managed","type":"aws_instance","name":"mod","provider_config_key":"module.m:aws"}]}}}}},
"resource_changes":[` + change("aws_instance.root", "") + `,` + change("aws_instance.hidden", "") + `,` +
		change("aws_instance.object", "") + `,` + change("module.m.aws_instance.mod", "module.m") + `]}`
	p, err := planparse.Parse("vars.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		region string
		source RegionSource
	}{
		"aws_instance.root":         {"eu-west-1", RegionFromProvider},
		"aws_instance.hidden":       {"", RegionFromNone},
		"aws_instance.object":       {"", RegionFromNone},
		"module.m.aws_instance.mod": {"", RegionFromNone},
	}
	for _, r := range Analyze(p, DefaultCatalog(), Options{}) {
		w, ok := want[r.Address]
		if !ok || r.After == nil {
			t.Fatalf("unexpected resource %s", r.Address)
		}
		if r.After.Region != w.region || r.After.RegionSource != w.source {
			t.Errorf("%s: region %q (%q), want %q (%q)", r.Address, r.After.Region, r.After.RegionSource, w.region, w.source)
		}
		delete(want, r.Address)
	}
	if len(want) > 0 {
		t.Errorf("resources not analyzed: %v", want)
	}
}

func change(addr, module string) string {
	typ, name, _ := typeOf(addr)
	m := ""
	if module != "" {
		m = `"module_address":"` + module + `",`
	}
	return `{"address":"` + addr + `",` + m + `"mode":"managed","type":"` + typ + `","name":"` + name + `","provider_name":"registry.terraform.io/hashicorp/aws",
"change":{"actions":["create"],"before":null,"after":{"instance_type":"g5.xlarge"},"after_unknown":{},"after_sensitive":{}}}`
}

// A region source reads as the words the docs and error output use.
func TestRegionSourceNames(t *testing.T) {
	t.Parallel()
	for src, want := range map[RegionSource]string{RegionFromNone: "", RegionFromResource: "resource",
		RegionFromParent: "parent cluster", RegionFromProvider: "provider", RegionFromDefault: "default"} {
		if got := src.String(); got != want {
			t.Errorf("RegionSource(%d) reads %q, want %q", src, got, want)
		}
	}
}
