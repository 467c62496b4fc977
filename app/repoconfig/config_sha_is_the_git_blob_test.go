package repoconfig

import (
	"context"
	"testing"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
)

// The config SHA a decision records is the file's git blob SHA, as
// git hash-object (and GitHub's contents API) names it; no config is "".
func TestConfigSHAIsTheGitBlobSHA(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		files map[string]string
		want  string
	}{
		"an empty config": {map[string]string{".github/planwarden.yml": ""}, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		"hello world":     {map[string]string{".github/planwarden.yml": "hello world\n"}, "3b18e512dba79e4c8300dd08aeb37f8e728b8dad"},
		"no config":       {nil, ""},
	} {
		t.Run(name, func(t *testing.T) {
			gh := &porttest.Reader{GetFileFunc: func(_ port.Repo, p, _ string) ([]byte, error) {
				if s, ok := tc.files[p]; ok {
					return []byte(s), nil
				}
				return nil, port.ErrNotFound
			}}
			got, err := SHA(context.Background(), gh, port.Repo{Owner: "o", Name: "r"}, "main")
			if err != nil || got != tc.want {
				t.Errorf("SHA = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
