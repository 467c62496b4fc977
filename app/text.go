package app

import "github.com/planwarden/planwarden/prose"

// clamp cuts s to at most n bytes on a rune boundary.
func clamp(s string, n int) string { return prose.Clamp(s, n) }

// short is a commit's seven-character name.
func short(sha string) string { return prose.ShortSHA(sha) }
