package lockfile

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Required reads the version constraints of the required_providers blocks
// of a Terraform file (name.tf, in HCL), by source address as Locks keys
// them: the source the entry names (a short hashicorp/azurerm is the
// registry's), else the hashicorp provider of the entry's name. An entry
// without a literal version constraint is left out; a file that is not
// HCL is an error naming the file and the line. Compare two with Moves:
// a pull request that changes a constraint and no lock file moves the
// provider when `terraform init` next picks a version.
func Required(name string, data []byte) (Locks, error) {
	f, diags := hclsyntax.ParseConfig(data, name, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	out := Locks{}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return out, nil
	}
	for _, tf := range body.Blocks {
		if tf.Type != "terraform" {
			continue
		}
		for _, rp := range tf.Body.Blocks {
			if rp.Type != "required_providers" {
				continue
			}
			for local, attr := range rp.Body.Attributes {
				v, diags := attr.Expr.Value(nil)
				if diags.HasErrors() || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
					continue // a bare version string is Terraform 0.12's; no source
				}
				version := str(v, "version")
				if version == "" {
					continue
				}
				out[sourceOf(local, str(v, "source"))] = version
			}
		}
	}
	return out, nil
}

// str is the string attribute key of the object v ("" when absent).
func str(v cty.Value, key string) string {
	if !v.Type().HasAttribute(key) {
		return ""
	}
	a := v.GetAttr(key)
	if a.IsNull() || !a.IsKnown() || a.Type() != cty.String {
		return ""
	}
	return a.AsString()
}

// sourceOf is the full source address of a required_providers entry.
func sourceOf(local, source string) string {
	switch strings.Count(source, "/") {
	case 0:
		return "registry.terraform.io/hashicorp/" + strings.ToLower(local)
	case 1:
		return "registry.terraform.io/" + strings.ToLower(source)
	}
	return strings.ToLower(source)
}
