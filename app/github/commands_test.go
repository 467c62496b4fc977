package github

import "testing"

func TestGraphQLURL(t *testing.T) {
	for rest, want := range map[string]string{
		"https://api.github.com/":           "https://api.github.com/graphql",
		"https://ghe.example.com/api/v3/":   "https://ghe.example.com/api/graphql",
		"http://127.0.0.1:4000/api/v3/":     "http://127.0.0.1:4000/api/graphql",
		"https://proxy.example.com/github/": "https://proxy.example.com/github/graphql",
	} {
		if got := graphQLURL(rest); got != want {
			t.Errorf("graphQLURL(%q) = %q, want %q", rest, got, want)
		}
	}
}
