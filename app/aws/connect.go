package aws

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/planwarden/planwarden/app/port"
)

// Clients are the SDK clients of the three adapters, from one
// configuration. Callers outside this package (cmd/lambda) build the
// adapters through them and never import the SDK.
type Clients struct {
	SQS      *sqs.Client
	DynamoDB *dynamodb.Client
	Secrets  *secretsmanager.Client
}

// Connect loads the configuration (see Options) and makes the clients. It
// makes no request.
func Connect(ctx context.Context, o Options) (*Clients, error) {
	cfg, err := LoadConfig(ctx, o)
	if err != nil {
		return nil, err
	}
	return &Clients{SQS: sqs.NewFromConfig(cfg), DynamoDB: dynamodb.NewFromConfig(cfg), Secrets: secretsmanager.NewFromConfig(cfg)}, nil
}

// Queue is NewQueue on these clients.
func (c *Clients) Queue(queueURL string) *Queue { return NewQueue(c.SQS, queueURL) }

// Store is NewStore on these clients.
func (c *Clients) Store(table string) *Store { return NewStore(c.DynamoDB, table) }

// LoadSecrets is LoadSecrets on these clients.
func (c *Clients) LoadSecrets(ctx context.Context, appID int64, ids SecretIDs) (port.Secrets, error) {
	return LoadSecrets(ctx, c.Secrets, appID, ids)
}
