package aws

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"sync"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/planwarden/planwarden/app/port"
)

// SecretIDs name the Secrets Manager secrets (name or ARN) that hold the
// App's credentials, each as a plain SecretString (or SecretBinary).
type SecretIDs struct {
	// PrivateKey holds the App's private key, PEM. Empty: not loaded (the
	// receiver function only needs the webhook secret).
	PrivateKey string
	// WebhookSecret holds the webhook secret. Required.
	WebhookSecret string
}

// LoadSecrets reads the App's secrets once; call it at cold start, not per
// event. The two secrets are read concurrently (one round trip of init
// time). Errors name the secret id, never its value.
func LoadSecrets(ctx context.Context, client *secretsmanager.Client, appID int64, ids SecretIDs) (port.Secrets, error) {
	if ids.WebhookSecret == "" {
		return port.Secrets{}, errors.New("load secrets: no webhook secret id configured")
	}
	var (
		wg             sync.WaitGroup
		webhook, key   []byte
		webErr, keyErr error
	)
	if ids.PrivateKey != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key, keyErr = secretValue(ctx, client, ids.PrivateKey)
			if keyErr == nil {
				if block, _ := pem.Decode(key); block == nil {
					key, keyErr = nil, fmt.Errorf("load secret %s: not a PEM private key", ids.PrivateKey)
				}
			}
		}()
	}
	webhook, webErr = secretValue(ctx, client, ids.WebhookSecret)
	wg.Wait()
	if err := errors.Join(webErr, keyErr); err != nil {
		return port.Secrets{}, err
	}
	return port.Secrets{AppID: appID, WebhookSecret: webhook, PrivateKeyPEM: key}, nil
}

func secretValue(ctx context.Context, client *secretsmanager.Client, id string) ([]byte, error) {
	out, err := client.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: sdkaws.String(id)})
	var notFound *types.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound) && strings.Contains(notFound.ErrorMessage(), "AWSCURRENT"):
		// The stack creates the private key's secret without a value.
		return nil, fmt.Errorf("load secret %s: it has no value yet; put one with: aws secretsmanager put-secret-value --secret-id %s --secret-string file://KEY.pem (docs/deploy.md, one-time setup)", id, id)
	case errors.As(err, &notFound):
		return nil, fmt.Errorf("load secret %s: no such secret; check the secret ARN the stack passed in (its outputs name them)", id)
	case err != nil:
		return nil, fmt.Errorf("load secret %s: %w", id, err)
	}
	v := out.SecretBinary
	if out.SecretString != nil {
		v = []byte(*out.SecretString)
	}
	// A value pasted into the console or a file often ends in a newline
	// that GitHub never saw.
	v = bytes.TrimRight(v, "\r\n")
	if len(v) == 0 {
		return nil, fmt.Errorf("load secret %s: empty", id)
	}
	return v, nil
}
