variable "name" { type = string }
resource "terraform_data" "node" { input = var.name }
output "id" { value = terraform_data.node.id }
