#!/usr/bin/env bash
# Regenerates ../terraform-real.json with the terraform CLI: apply v1.tf,
# then plan v2.tf. Only built-in terraform_data resources, so no provider
# downloads are needed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/mod" "$work/"
cp "$here/v1.tf" "$work/main.tf"
cd "$work"
terraform init -input=false >/dev/null
terraform apply -auto-approve -input=false >/dev/null
cp "$here/v2.tf" main.tf
terraform plan -input=false -out=tfplan >/dev/null
terraform show -json tfplan > "$here/../terraform-real.json"
