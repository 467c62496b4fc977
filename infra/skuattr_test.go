package infra

import "testing"

// The sku-unknown finding names the attribute to look at: every resource
// type planwarden reads has one, so a new adapter cannot leave it out.
func TestEverySupportedTypeNamesItsSKUAttribute(t *testing.T) {
	t.Parallel()
	for typ := range adapters {
		if SKUAttribute(typ) == "" {
			t.Errorf("%s has no entry in skuAttributes: the sku-unknown finding could not name its SKU attribute", typ)
		}
	}
	tests := map[string]struct{ typ, want string }{
		"a Terraform type":                {"azurerm_kubernetes_cluster_node_pool", "vm_size"},
		"an ARM type in another case":     {"microsoft.compute/virtualmachines", "properties.hardwareProfile.vmSize"},
		"a Terraform type is exact":       {"AWS_INSTANCE", ""},
		"a type planwarden does not read": {"aws_s3_bucket", ""},
	}
	for name, tc := range tests {
		if got := SKUAttribute(tc.typ); got != tc.want {
			t.Errorf("%s: SKUAttribute(%q) = %q, want %q", name, tc.typ, got, tc.want)
		}
	}
}
