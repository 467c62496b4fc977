package githubtest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/http"
	"time"
)

// ManifestApp is an App the fake "creates" from a manifest: what
// POST /app-manifests/{code}/conversions answers for its code, once.
type ManifestApp struct {
	ID                  int64
	Slug, Name, Owner   string
	PEM, WebhookSecret  string
	ClientID, ClientKey string
	used                bool
}

// ManifestCode makes code convertible into a new App, as GitHub does when
// someone presses "Create GitHub App" on the manifest page: the App's key is
// a fresh RSA key, its webhook secret random. The code converts once.
func (s *Server) ManifestCode(code, slug string) ManifestApp {
	s.t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		s.t.Fatalf("githubtest: %v", err)
	}
	secret := make([]byte, 20)
	rand.Read(secret)
	s.mu.Lock()
	defer s.mu.Unlock()
	a := &ManifestApp{
		ID: s.id(), Slug: slug, Name: slug, Owner: "octocat",
		PEM:           string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})),
		WebhookSecret: hex.EncodeToString(secret),
		ClientID:      "Iv1." + hex.EncodeToString(secret[:8]), ClientKey: hex.EncodeToString(secret[8:]),
	}
	if s.manifests == nil {
		s.manifests = map[string]*ManifestApp{}
	}
	s.manifests[code] = a
	return *a
}

func (s *Server) convertManifest(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	a, ok := s.manifests[r.PathValue("code")]
	if ok && a.used {
		ok = false
	}
	if ok {
		a.used = true
	}
	s.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	now := time.Now().UTC().Format(time.RFC3339)
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": a.ID, "slug": a.Slug, "node_id": fmt.Sprintf("A_%d", a.ID), "name": a.Name,
		"owner":       map[string]any{"login": a.Owner, "id": 1, "type": "User"},
		"description": "", "external_url": "https://example.com", "html_url": "https://github.com/apps/" + a.Slug,
		"created_at": now, "updated_at": now, "permissions": map[string]string{}, "events": []string{},
		"client_id": a.ClientID, "client_secret": a.ClientKey, "webhook_secret": a.WebhookSecret, "pem": a.PEM,
	})
}
