package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
)

// A stranger's oversized headers are refused (431) before they are held;
// the same request with GitHub-sized headers is answered.
func TestServeRefusesOversizedHeaders(t *testing.T) {
	t.Parallel()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{addr: "127.0.0.1:0", apiURL: "http://127.0.0.1:1/api/v3/", dataDir: t.TempDir()}
	cfg.secrets.AppID = 1
	cfg.secrets.PrivateKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	cfg.secrets.WebhookSecret = []byte("s3cret")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, &bytes.Buffer{}, func(a string) { addr <- a }) }()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("serve stopped: %v", err)
	}
	tests := map[string]struct {
		padding int
		want    int
	}{
		"GitHub-sized headers":      {padding: 2 << 10, want: http.StatusUnauthorized}, // unsigned: refused by the receiver
		"256 KB of headers":         {padding: 256 << 10, want: http.StatusRequestHeaderFieldsTooLarge},
		"just over the 64 KB bound": {padding: maxHeaderBytes + 4<<10 + 1, want: http.StatusRequestHeaderFieldsTooLarge},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, base+"/webhook", strings.NewReader("{}"))
			req.Header.Set("X-GitHub-Event", "ping")
			req.Header.Set("X-GitHub-Delivery", "d-1")
			req.Header.Set("X-Padding", strings.Repeat("p", tc.padding))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("status %d; want %d", resp.StatusCode, tc.want)
			}
		})
	}
	cancel()
	<-done
}
