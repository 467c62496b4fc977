package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	ghadapter "github.com/planwarden/planwarden/app/github"
)

// The GitHub App's credentials as `planwarden setup` stores them in the
// data directory, each file mode 0600; `serve` reads them there when the
// PLANWARDEN_* variable of the same value is not set.
const (
	appInfoFile       = "github-app.json" // id, slug, page, REST API base: no secret
	appKeyFile        = "github-app.pem"  // the private key
	appSecretFile     = "webhook-secret"  // the webhook secret, no newline
	appCredentialMode = 0o600
)

// storedApp is github-app.json.
type storedApp struct {
	ID      int64  `json:"id"`
	Slug    string `json:"slug,omitempty"`
	HTMLURL string `json:"html_url,omitempty"`
	APIURL  string `json:"api_url,omitempty"`
}

// readStoredApp reads github-app.json of dir; ok is false when there is none.
func readStoredApp(dir string, readFile func(string) ([]byte, error)) (storedApp, bool, error) {
	var a storedApp
	p := filepath.Join(dir, appInfoFile)
	data, err := readFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("read %s: %v", p, errors.Unwrap(err))
	}
	if err := json.Unmarshal(data, &a); err != nil || a.ID <= 0 {
		return a, false, fmt.Errorf("%s: not the App file planwarden setup writes (want {\"id\": N, ...}); run planwarden setup --force again", p)
	}
	return a, true, nil
}

// storedCredentialsExist reports whether dir holds any of the App's files.
func storedCredentialsExist(dir string) []string {
	var found []string
	for _, f := range []string{appInfoFile, appKeyFile, appSecretFile} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			found = append(found, f)
		}
	}
	return found
}

// writeStoredApp writes the App's three files into dir (made 0700 when it
// does not exist), each whole under a temporary name and renamed, mode
// 0600. The key and the secret are written, never printed.
func writeStoredApp(dir string, app ghadapter.CreatedApp, apiURL string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("make the data directory %s: %v", dir, errors.Unwrap(err))
	}
	info, err := json.MarshalIndent(storedApp{ID: app.Secrets.AppID, Slug: app.Slug, HTMLURL: app.HTMLURL, APIURL: apiURL}, "", "  ")
	if err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{
		{appKeyFile, app.Secrets.PrivateKeyPEM},
		{appSecretFile, []byte(strings.TrimRight(string(app.Secrets.WebhookSecret), "\r\n"))},
		{appInfoFile, append(info, '\n')}, // last: its presence says the others are there
	}
	for _, f := range files {
		if err := writeFile0600(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}

func writeFile0600(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %v", path, errors.Unwrap(err))
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(appCredentialMode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %v", path, errors.Unwrap(err))
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %v", path, errors.Unwrap(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %v", path, errors.Unwrap(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %v", path, errors.Unwrap(err))
	}
	return nil
}
