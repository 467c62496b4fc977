variable "db_password" {
  type      = string
  sensitive = true
  default   = "hunter2-v1"
}
resource "terraform_data" "update_me" { input = { size = "small", team = "ml" } }
resource "terraform_data" "replace_me" { triggers_replace = ["v1"] }
resource "terraform_data" "cbd" {
  triggers_replace = ["v1"]
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "delete_me" { input = "bye" }
resource "terraform_data" "move_me" { input = "moving" }
resource "terraform_data" "forget_me" { input = "keep the object" }
resource "terraform_data" "secret" { input = var.db_password }
module "counted" {
  source = "./mod"
  count  = 2
  name   = "counted-${count.index}"
}
module "each" {
  source   = "./mod"
  for_each = toset(["gpu", "cpu"])
  name     = each.key
}
