# An AKS cluster with a GPU node pool for training. The plan in
# ../plans/aks-gpu-typo.json is this stack with var.gpu_vm_size mistyped
# as Standard_D16s_v5: planwarden blocks it (gpu-sku-loss, gpu-pool-sku).
terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm", version = "~> 3.110" }
  }
}

provider "azurerm" {
  features {}
}

variable "gpu_vm_size" {
  type    = string
  default = "Standard_NC6s_v3"
}

resource "azurerm_resource_group" "ml" {
  name     = "ml-prod"
  location = "westeurope"
}

resource "azurerm_kubernetes_cluster" "main" {
  name                = "ml-prod"
  location            = azurerm_resource_group.ml.location
  resource_group_name = azurerm_resource_group.ml.name
  dns_prefix          = "ml-prod"

  default_node_pool {
    name       = "system"
    vm_size    = "Standard_D4s_v5"
    node_count = 3
  }

  identity {
    type = "SystemAssigned"
  }

  tags = { "cost-center" = "ml-platform", env = "prod" }
}

resource "azurerm_kubernetes_cluster_node_pool" "gpu" {
  name                  = "gpu"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.main.id
  vm_size               = var.gpu_vm_size
  enable_auto_scaling   = true
  node_count            = 2
  min_count             = 1
  max_count             = 4
  node_labels           = { hardware = "gpu", workload = "training" }
  node_taints           = ["sku=gpu:NoSchedule"]
  tags                  = { "cost-center" = "ml-research", team = "ml-platform" }
}
