package command

import (
	"testing"
)

func TestOverrideArgs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args                  []string
		rule, address, reason string
	}{
		"nothing":                    {nil, "", "", ""},
		"a rule":                     {[]string{"gpu-sku-loss"}, "gpu-sku-loss", "", ""},
		"a rule and an address":      {[]string{"gpu-sku-loss", "azurerm_kubernetes_cluster_node_pool.gpu"}, "gpu-sku-loss", "azurerm_kubernetes_cluster_node_pool.gpu", ""},
		"an address with a space":    {[]string{"stateful-delete", `aws_s3_bucket.b["a`, `b"]`}, "stateful-delete", `aws_s3_bucket.b["a b"]`, ""},
		"a reason":                   {[]string{"gpu-sku-loss", "--", "on", "purpose"}, "gpu-sku-loss", "", "on purpose"},
		"an address and a reason":    {[]string{"iam-admin", "aws_iam_role.ci", "--", "break-glass", "--", "INC-42"}, "iam-admin", "aws_iam_role.ci", "break-glass -- INC-42"},
		"a reason and no rule":       {[]string{"--", "why"}, "", "", "why"},
		"an empty reason is nothing": {[]string{"gpu-sku-loss", "--"}, "gpu-sku-loss", "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rule, address, reason := overrideArgs(tc.args)
			if rule != tc.rule || address != tc.address || reason != tc.reason {
				t.Errorf("overrideArgs(%q) = %q, %q, %q; want %q, %q, %q", tc.args, rule, address, reason, tc.rule, tc.address, tc.reason)
			}
		})
	}
}
