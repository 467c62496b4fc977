variable "db_password" {
  type      = string
  sensitive = true
  default   = "hunter2-v2"
}
resource "terraform_data" "update_me" { input = { size = "large", team = "ml" } }
resource "terraform_data" "replace_me" { triggers_replace = ["v2"] }
resource "terraform_data" "cbd" {
  triggers_replace = ["v2"]
  lifecycle { create_before_destroy = true }
}
moved {
  from = terraform_data.move_me
  to   = terraform_data.moved
}
resource "terraform_data" "moved" { input = "moving" }
removed {
  from = terraform_data.forget_me
  lifecycle { destroy = false }
}
resource "terraform_data" "secret" { input = var.db_password }
resource "terraform_data" "created" { input = "new" }
data "terraform_remote_state" "self" {
  backend    = "local"
  config     = { path = "terraform.tfstate" }
  depends_on = [terraform_data.update_me]
}
module "counted" {
  source = "./mod"
  count  = 3
  name   = "counted-${count.index}"
}
module "each" {
  source   = "./mod"
  for_each = toset(["gpu"])
  name     = each.key
}
output "db_password" {
  value     = terraform_data.secret.output
  sensitive = true
}
output "created_id" { value = terraform_data.created.id }
