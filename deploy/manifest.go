// Package deploy holds what planwarden is deployed with: the GitHub App
// manifest that `planwarden setup` posts to GitHub (and that the App's
// tests check against the handler).
package deploy

import _ "embed" // github-app-manifest.json

// AppManifest is github-app-manifest.json: the App's permissions, events
// and placeholders for the names and URLs setup fills in.
//
//go:embed github-app-manifest.json
var AppManifest []byte
