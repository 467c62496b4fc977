# The staging copy of the LLM endpoint (../sagemaker-endpoint is prod's),
# on a smaller instance. Its environment is staging in
# ../planwarden.yml, so a rename here only warns, and `/destroy-staging`
# may tear it down (../workflows/destroy-staging.yml).
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.60" }
  }
}

provider "aws" {
  region = "us-east-1"
}

variable "model_name" {
  type    = string
  default = "llm-13b"
}

resource "aws_sagemaker_endpoint_configuration" "llm" {
  name = "llm-staging-config"

  production_variants {
    variant_name           = "primary"
    model_name             = var.model_name
    instance_type          = "ml.g5.xlarge"
    initial_instance_count = 1
  }

  tags = { "cost-center" = "ml-serving", env = "staging" }
}

resource "aws_sagemaker_endpoint" "llm" {
  name                 = "llm-staging"
  endpoint_config_name = aws_sagemaker_endpoint_configuration.llm.name
  tags                 = { "cost-center" = "ml-serving", env = "staging" }
}
