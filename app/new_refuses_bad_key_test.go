package app

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/port"
)

func TestNewRefusesABadPrivateKey(t *testing.T) {
	t.Parallel()
	_, err := New(Config{Secrets: port.Secrets{AppID: 1, PrivateKeyPEM: []byte("-----BEGIN RSA PRIVATE KEY-----\nSECRETBYTES\n-----END RSA PRIVATE KEY-----\n")}})
	if err == nil || strings.Contains(err.Error(), "SECRETBYTES") || !strings.Contains(err.Error(), "private key") {
		t.Fatalf("New with a bad key: %v, want an error about the key that does not quote it", err)
	}
}
