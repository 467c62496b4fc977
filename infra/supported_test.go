package infra

// What the tests ask of the adapters and the catalog that the program
// never asks: the types with an adapter, and a resource type's cloud.

import (
	"sort"
	"strings"
)

// Supported reports whether Analyze understands a resource type.
func Supported(resourceType string) bool { _, ok := adapterFor(resourceType); return ok }

// SupportedTypes lists the resource types Analyze understands, sorted.
func SupportedTypes() []string {
	out := make([]string, 0, len(adapters))
	for t := range adapters {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// CloudOf returns the catalog cloud of a Terraform resource type:
// azure for azurerm_*, aws-sagemaker for aws_sagemaker_*, aws for other
// aws_*, gcp for google_*, and "" for anything else.
func CloudOf(resourceType string) string {
	switch {
	case strings.HasPrefix(resourceType, "azurerm_"):
		return CloudAzure
	case strings.HasPrefix(resourceType, "aws_sagemaker_"):
		return CloudSageMaker
	case strings.HasPrefix(resourceType, "aws_"):
		return CloudAWS
	case strings.HasPrefix(resourceType, "google_"):
		return CloudGCP
	}
	return ""
}
