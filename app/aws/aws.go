// Package aws holds planwarden's AWS adapters: the App's Queue port on SQS
// FIFO, its Store port on DynamoDB, and the App secrets from Secrets
// Manager. It is the only package that imports aws-sdk-go-v2.
package aws

import (
	"context"
	"fmt"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Options configure the AWS SDK for the adapters. The zero value uses the
// SDK's defaults: region, credentials and endpoints from the environment
// (AWS_REGION, the Lambda role, AWS_ENDPOINT_URL).
type Options struct {
	// Region overrides AWS_REGION.
	Region string
	// Endpoint overrides the endpoint of every service, for an emulator
	// such as moto_server in tests.
	Endpoint string
	// Credentials overrides the SDK's credential chain (tests use static
	// fake credentials).
	Credentials sdkaws.CredentialsProvider
}

// LoadConfig returns the SDK configuration for NewQueue, NewStore and
// LoadSecrets clients.
func LoadConfig(ctx context.Context, o Options) (sdkaws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if o.Region != "" {
		opts = append(opts, config.WithRegion(o.Region))
	}
	if o.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(o.Credentials))
	}
	if o.Endpoint != "" {
		opts = append(opts, config.WithBaseEndpoint(o.Endpoint))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return sdkaws.Config{}, fmt.Errorf("load aws config: %w", err)
	}
	return cfg, nil
}
