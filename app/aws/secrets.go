package aws

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/planwarden/planwarden/app"
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
// event. Errors name the secret id, never its value.
func LoadSecrets(ctx context.Context, client *secretsmanager.Client, appID int64, ids SecretIDs) (app.Secrets, error) {
	if ids.WebhookSecret == "" {
		return app.Secrets{}, errors.New("load secrets: no webhook secret id configured")
	}
	webhook, err := secretValue(ctx, client, ids.WebhookSecret)
	if err != nil {
		return app.Secrets{}, err
	}
	s := app.Secrets{AppID: appID, WebhookSecret: webhook}
	if ids.PrivateKey != "" {
		key, err := secretValue(ctx, client, ids.PrivateKey)
		if err != nil {
			return app.Secrets{}, err
		}
		if block, _ := pem.Decode(key); block == nil {
			return app.Secrets{}, fmt.Errorf("load secret %s: not a PEM private key", ids.PrivateKey)
		}
		s.PrivateKeyPEM = key
	}
	return s, nil
}

func secretValue(ctx context.Context, client *secretsmanager.Client, id string) ([]byte, error) {
	out, err := client.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: sdkaws.String(id)})
	if err != nil {
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
