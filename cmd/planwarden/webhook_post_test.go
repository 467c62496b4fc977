package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
)

// postWebhook delivers body to serve's webhook at base as GitHub does:
// its event, its delivery id, and signed with secret (unsigned when secret
// is nil). It returns the status, or the error of a delivery that got no
// answer.
func postWebhook(base string, secret []byte, event, delivery string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	if secret != nil {
		m := hmac.New(sha256.New, secret)
		m.Write(body)
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}
