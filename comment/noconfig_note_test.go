package comment

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNoConfigSaysSoInOneLine: a review made without a repo config says
// so once, in the verdict block, with how to add one; a review with a
// config does not.
func TestNoConfigSaysSoInOneLine(t *testing.T) {
	t.Parallel()
	r, opt := loadCase(t, filepath.Join("testdata", "aks-gpu-typo.json"))
	for name, noConfig := range map[string]bool{"without a config": true, "with a config": false} {
		t.Run(name, func(t *testing.T) {
			opt := opt
			opt.NoConfig = noConfig
			for what, body := range map[string]string{"comment": Render(r, opt), "check summary": CheckOutput(r, opt).Summary} {
				n := strings.Count(body, "No `.github/planwarden.yml` was found")
				if !noConfig {
					if n != 0 {
						t.Errorf("%s mentions a missing config", what)
					}
					continue
				}
				if n != 1 || !strings.Contains(body, "`planwarden init` writes a config") {
					t.Errorf("%s: the no-config line appears %d times, want once with planwarden init:\n%.600s", what, n, body)
				}
				verdictBlock, _, _ := strings.Cut(body, "\n### ")
				if !strings.Contains(verdictBlock, "\n> ℹ️ No `.github/planwarden.yml`") {
					t.Errorf("%s: the line is not in the verdict block:\n%.600s", what, body)
				}
			}
		})
	}
}
