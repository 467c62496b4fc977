// Package awstest provisions throwaway AWS resources on the moto_server
// that scripts/test.sh starts (PLANWARDEN_TEST_MOTO_URL), for the tests of
// app/aws and cmd/lambda. Tests skip when no moto_server is configured.
package awstest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"testing"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	pwaws "github.com/planwarden/planwarden/app/aws"
)

// EnvMotoURL names the variable that holds the moto_server base URL.
const EnvMotoURL = "PLANWARDEN_TEST_MOTO_URL"

// Region and the static fake credentials every test uses.
const (
	Region          = "us-east-1"
	AccessKeyID     = "AKIAIOSFODNN7EXAMPLE"
	SecretAccessKey = "fake-secret-for-moto"
)

// URL returns the moto_server URL, or skips the test with how to get one.
func URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(EnvMotoURL)
	if url == "" {
		t.Skip(EnvMotoURL + " is not set, so the AWS adapter tests are skipped: run `make test`, or start `moto_server -H 127.0.0.1 -p 5055 &` and set " + EnvMotoURL + "=http://127.0.0.1:5055")
	}
	return url
}

// Credentials are the static fake credentials.
func Credentials() sdkaws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(AccessKeyID, SecretAccessKey, "")
}

// Options point the adapters at moto: region us-east-1, static fake
// credentials, every endpoint on the moto_server.
func Options(t testing.TB) pwaws.Options {
	t.Helper()
	return pwaws.Options{Region: Region, Endpoint: URL(t), Credentials: Credentials()}
}

// Config is the SDK configuration of Options.
func Config(t testing.TB) sdkaws.Config {
	t.Helper()
	cfg, err := pwaws.LoadConfig(context.Background(), Options(t))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Clients are the adapters' clients on moto.
func Clients(t testing.TB) *pwaws.Clients {
	t.Helper()
	c, err := pwaws.Connect(context.Background(), Options(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Name returns a fresh resource name, so tests never share state.
func Name(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// Table creates a table laid out as pwaws.Store expects (the layout of
// template.yaml), with TTL enabled, and deletes it when the test ends.
func Table(t testing.TB, client *dynamodb.Client) string {
	t.Helper()
	ctx := context.Background()
	name := Name("planwarden-test")
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            sdkaws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: sdkaws.String(pwaws.KeyAttribute), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: sdkaws.String(pwaws.KeyAttribute), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatalf("create table: %v", err)
	}
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: sdkaws.String(name)})
	})
	_, err = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName:               sdkaws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: sdkaws.String(pwaws.TTLAttribute), Enabled: sdkaws.Bool(true)},
	})
	if err != nil {
		t.Fatalf("enable ttl: %v", err)
	}
	return name
}

// FIFOQueue is a FIFO queue and its dead-letter queue.
type FIFOQueue struct {
	URL, DLQURL string
	// MaxReceives is the redrive policy's maxReceiveCount.
	MaxReceives int
}

// Queue creates a FIFO queue whose messages move to a FIFO dead-letter
// queue after maxReceives receives (as template.yaml configures it), and
// deletes both when the test ends.
func Queue(t testing.TB, client *sqs.Client, maxReceives int) FIFOQueue {
	t.Helper()
	ctx := context.Background()
	name := Name("planwarden-test")
	dlq, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{
		QueueName:  sdkaws.String(name + "-dlq.fifo"),
		Attributes: map[string]string{"FifoQueue": "true"},
	})
	if err != nil {
		t.Fatalf("create dlq: %v", err)
	}
	t.Cleanup(func() { client.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: dlq.QueueUrl}) })
	attrs, err := client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: dlq.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
	if err != nil {
		t.Fatalf("dlq arn: %v", err)
	}
	q, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{
		QueueName: sdkaws.String(name + ".fifo"),
		Attributes: map[string]string{
			"FifoQueue":         "true",
			"VisibilityTimeout": "60",
			"RedrivePolicy":     `{"deadLetterTargetArn":"` + attrs.Attributes["QueueArn"] + `","maxReceiveCount":` + strconv.Itoa(maxReceives) + `}`,
		},
	})
	if err != nil {
		t.Fatalf("create queue: %v", err)
	}
	t.Cleanup(func() { client.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: q.QueueUrl}) })
	return FIFOQueue{URL: *q.QueueUrl, DLQURL: *dlq.QueueUrl, MaxReceives: maxReceives}
}

// Secret creates a secret holding value and returns its ARN.
func Secret(t testing.TB, client *secretsmanager.Client, value string) string {
	t.Helper()
	out, err := client.CreateSecret(context.Background(), &secretsmanager.CreateSecretInput{
		Name:         sdkaws.String(Name("planwarden/test")),
		SecretString: sdkaws.String(value),
	})
	if err != nil {
		t.Fatalf("create secret: %v", err)
	}
	t.Cleanup(func() {
		client.DeleteSecret(context.Background(), &secretsmanager.DeleteSecretInput{SecretId: out.ARN, ForceDeleteWithoutRecovery: sdkaws.Bool(true)})
	})
	return *out.ARN
}

// Message is a received SQS message with its system attributes
// (ApproximateReceiveCount, MessageGroupId, MessageDeduplicationId, ...).
type Message struct {
	ID, ReceiptHandle, Body, MD5OfBody string
	Attributes                         map[string]string
}

// Receive takes up to max messages off the queue at url, as a worker (or
// Lambda's event source mapping) would; they stay in flight until deleted
// or released.
func Receive(t testing.TB, client *sqs.Client, url string, max int32) []Message {
	t.Helper()
	out, err := client.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl:                    sdkaws.String(url),
		MaxNumberOfMessages:         max,
		MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
	})
	if err != nil {
		t.Fatalf("receive from %s: %v", url, err)
	}
	msgs := make([]Message, 0, len(out.Messages))
	for _, m := range out.Messages {
		msgs = append(msgs, Message{ID: sdkaws.ToString(m.MessageId), ReceiptHandle: sdkaws.ToString(m.ReceiptHandle),
			Body: sdkaws.ToString(m.Body), MD5OfBody: sdkaws.ToString(m.MD5OfBody), Attributes: m.Attributes})
	}
	return msgs
}

// Delete removes a received message: its job is done.
func Delete(t testing.TB, client *sqs.Client, url string, m Message) {
	t.Helper()
	if _, err := client.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: sdkaws.String(url), ReceiptHandle: sdkaws.String(m.ReceiptHandle)}); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

// Depth returns the queue's visible and in-flight message counts.
func Depth(t testing.TB, client *sqs.Client, url string) (visible, inFlight string) {
	t.Helper()
	out, err := client.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{
		QueueUrl: sdkaws.String(url),
		AttributeNames: []sqstypes.QueueAttributeName{
			sqstypes.QueueAttributeNameApproximateNumberOfMessages, sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
		},
	})
	if err != nil {
		t.Fatalf("queue attributes: %v", err)
	}
	return out.Attributes["ApproximateNumberOfMessages"], out.Attributes["ApproximateNumberOfMessagesNotVisible"]
}
