# A real-time SageMaker endpoint serving an LLM. Renaming the endpoint
# (../plans/sagemaker-rename.json) forces a replacement: the old endpoint is
# deleted before the new one serves. planwarden blocks that in prod.
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
  name = "llm-prod-config"

  production_variants {
    variant_name           = "primary"
    model_name             = var.model_name
    instance_type          = "ml.g5.2xlarge"
    initial_instance_count = 2
  }

  tags = { "cost-center" = "ml-serving", env = "prod" }
}

resource "aws_sagemaker_endpoint" "llm" {
  name                 = "llm-prod"
  endpoint_config_name = aws_sagemaker_endpoint_configuration.llm.name
  tags                 = { "cost-center" = "ml-serving", env = "prod" }
}
