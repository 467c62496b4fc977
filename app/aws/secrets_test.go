package aws_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"strings"
	"testing"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	pwaws "github.com/planwarden/planwarden/app/aws"
	"github.com/planwarden/planwarden/app/aws/awstest"
)

var testPEM = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("not a real key, only PEM-shaped")}))

func TestLoadSecrets(t *testing.T) {
	t.Parallel()
	client := secretsmanager.NewFromConfig(awstest.Config(t))
	key := awstest.Secret(t, client, testPEM)
	hook := awstest.Secret(t, client, "It's a Secret to Everybody\n")
	ctx := context.Background()

	t.Run("both secrets are loaded", func(t *testing.T) {
		s, err := pwaws.LoadSecrets(ctx, client, 123456, pwaws.SecretIDs{PrivateKey: key, WebhookSecret: hook})
		if err != nil {
			t.Fatal(err)
		}
		if s.AppID != 123456 || string(s.PrivateKeyPEM) != strings.TrimRight(testPEM, "\n") || string(s.WebhookSecret) != "It's a Secret to Everybody" {
			t.Errorf("loaded app %d, key %q, webhook secret %q; want 123456, the PEM, and the secret without its newline", s.AppID, s.PrivateKeyPEM, s.WebhookSecret)
		}
		if out := fmt.Sprintf("%v %+v %s", s, s, s); strings.Contains(out, "Secret to Everybody") || strings.Contains(out, "PRIVATE KEY") {
			t.Errorf("formatting the secrets printed them: %s", out)
		}
	})

	t.Run("the receiver loads only the webhook secret", func(t *testing.T) {
		s, err := pwaws.LoadSecrets(ctx, client, 1, pwaws.SecretIDs{WebhookSecret: hook})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.PrivateKeyPEM) != 0 || len(s.WebhookSecret) == 0 {
			t.Errorf("loaded key %d bytes, webhook secret %d bytes; want 0 and the secret", len(s.PrivateKeyPEM), len(s.WebhookSecret))
		}
	})

	notPEM := awstest.Secret(t, client, "hunter2-not-a-pem")
	// The stack creates the private key's secret with no value: the first
	// deploy's state until step 1 of the one-time setup.
	empty, err := client.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: sdkaws.String(awstest.Name("planwarden/empty"))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		client.DeleteSecret(context.Background(), &secretsmanager.DeleteSecretInput{SecretId: empty.ARN, ForceDeleteWithoutRecovery: sdkaws.Bool(true)})
	})
	errs := map[string]struct {
		ids  pwaws.SecretIDs
		want string
	}{
		"no webhook secret configured": {ids: pwaws.SecretIDs{PrivateKey: key}, want: "no webhook secret id"},
		"a secret that does not exist": {ids: pwaws.SecretIDs{WebhookSecret: "planwarden/missing"}, want: "load secret planwarden/missing: no such secret"},
		"a secret with no value yet":   {ids: pwaws.SecretIDs{PrivateKey: *empty.ARN, WebhookSecret: hook}, want: "it has no value yet; put one with: aws secretsmanager put-secret-value --secret-id " + *empty.ARN},
		"a private key that is no PEM": {ids: pwaws.SecretIDs{PrivateKey: notPEM, WebhookSecret: hook}, want: "not a PEM private key"},
	}
	for name, tc := range errs {
		t.Run(name, func(t *testing.T) {
			_, err := pwaws.LoadSecrets(ctx, client, 1, tc.ids)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("LoadSecrets error = %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "Everybody") {
				t.Errorf("the error shows a secret value: %v", err)
			}
		})
	}
}
