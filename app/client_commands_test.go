package app

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

func TestThreadOfRun(t *testing.T) {
	for title, want := range map[string]string{
		"planwarden plan #7 pw-7-1001": "pw-7-1001",
		"pw-12-5":                      "pw-12-5",
		"destroy staging #7 pw-7-9 x":  "pw-7-9",
		"Fix the GPU pool":             "",
		"xpw-7-1001":                   "",
		"pw-7-1001-extra":              "",
		"pw-0-1":                       "",
	} {
		id, _, ok := threadOfRun(title)
		if ok != (want != "") || id != want && ok {
			t.Errorf("threadOfRun(%q) = %q %v, want %q", title, id, ok, want)
		}
	}
}
