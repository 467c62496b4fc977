# The AKS GPU pool of examples/aks-gpu, planned by Terragrunt. The typo of the
# story: the GPU pool's size set to the system pool's.
include "root" {
  path = find_in_parent_folders("root.hcl")
}

terraform {
  source = "../../../../aks-gpu"
}

inputs = {
  gpu_vm_size = "Standard_D16s_v5"
}
