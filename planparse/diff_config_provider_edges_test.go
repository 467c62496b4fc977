package planparse

import (
	"strings"
	"testing"
)

// TestDiffEmptyListAndNull: a list going from empty to null (or back) is
// no change worth a diff line; a list that had elements and goes to null
// is one.
func TestDiffEmptyListAndNull(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",
"change":{"actions":["update"],"before":{"empty":[],"gone":["sg-1"],"none":null,"map":{}},"after":{"empty":null,"gone":null,"none":[],"map":null},"after_unknown":{}}}]}`)
	var got []string
	for _, d := range p.Changes[0].Diff() {
		got = append(got, d.Path+": "+d.Before.Display()+" -> "+d.After.Display())
	}
	if want := `gone: ["sg-1"] -> null`; strings.Join(got, "; ") != want {
		t.Errorf("diff = %q, want %q", got, want)
	}
}

// TestConfigNestedBlocks: a configuration expression written as a list of
// blocks or as one object (a single nested block) reads as Blocks, whose
// attributes hold their constants; an object with no expression in it is
// no block.
func TestConfigNestedBlocks(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[],"configuration":{"root_module":{"resources":[
{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu","expressions":{
 "instance_type":{"constant_value":"p4d.24xlarge"},
 "ebs_block_device":[{"device_name":{"constant_value":"/dev/sdb"},"volume_size":{"constant_value":500}},{"volume_size":{"constant_value":100}}],
 "root_block_device":{"volume_size":{"constant_value":200}},
 "metadata_options":{}}}]}}}`)
	cr := p.ConfigResource("aws_instance.gpu")
	if cr == nil {
		t.Fatal("no config resource aws_instance.gpu")
	}
	ebs := cr.Expressions["ebs_block_device"]
	if ebs == nil || len(ebs.Blocks) != 2 || ebs.Blocks[0]["volume_size"].Constant.Display() != "500" || ebs.Blocks[1]["volume_size"].Constant.Display() != "100" {
		t.Errorf("ebs_block_device (a list of blocks) = %+v", ebs)
	}
	root := cr.Expressions["root_block_device"]
	if root == nil || len(root.Blocks) != 1 || root.Blocks[0]["volume_size"].Constant.Display() != "200" {
		t.Errorf("root_block_device (one block as an object) = %+v", root)
	}
	if md := cr.Expressions["metadata_options"]; md == nil || len(md.Blocks) != 0 || md.HasConstant {
		t.Errorf("metadata_options (an empty object) = %+v, want no blocks and no constant", md)
	}
}

// TestProviderConfigForModuleKeys: without a provider_config_key and
// without a block under the provider's short name, the block for a change
// is the unaliased one whose full name or local name is the provider's.
func TestProviderConfigForModuleKeys(t *testing.T) {
	t.Parallel()
	const full = "registry.terraform.io/hashicorp/aws"
	for what, c := range map[string]struct {
		providers string
		want      string // the key found, "" for none
	}{
		"local name differs, full name matches": {`"module.m:amazon":{"name":"amazon","full_name":"` + full + `","module_address":"module.m"}`, "module.m:amazon"},
		"full name differs, local name matches": {`"module.m:aws":{"name":"aws","full_name":"hashicorp/aws","module_address":"module.m"}`, "module.m:aws"},
		"only an aliased block":                 {`"module.m:aws.east":{"name":"aws","full_name":"` + full + `","alias":"east","module_address":"module.m"}`, ""},
		"another provider":                      {`"module.m:google":{"name":"google","full_name":"registry.terraform.io/hashicorp/google","module_address":"module.m"}`, ""},
	} {
		p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"module.m.aws_instance.a","module_address":"module.m","mode":"managed","type":"aws_instance","name":"a","provider_name":"`+full+`",
"change":{"actions":["create"],"before":null,"after":{"instance_type":"g5.xlarge"},"after_unknown":{}}}],"configuration":{"provider_config":{`+c.providers+`},"root_module":{}}}`)
		got := ""
		if pc := p.ProviderConfigFor(p.Changes[0]); pc != nil {
			got = pc.Key
		}
		if got != c.want {
			t.Errorf("%s: ProviderConfigFor = %q, want %q", what, got, c.want)
		}
	}
}
