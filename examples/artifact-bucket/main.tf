# The bucket that holds checkpoints and model artifacts. Changing only its
# lifecycle rule (../plans/bucket-lifecycle.json) is safe and passes;
# deleting or replacing the bucket is blocked (stateful-delete).
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.60" }
  }
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_s3_bucket" "artifacts" {
  bucket = "ml-artifacts-prod"
  tags   = { "cost-center" = "ml-platform" }
}

resource "aws_s3_bucket_lifecycle_configuration" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id

  rule {
    id     = "expire-checkpoints"
    status = "Enabled"
    filter {
      prefix = "checkpoints/"
    }
    expiration {
      days = 90
    }
  }
}
