package app

import (
	"fmt"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/rules"
)

// What app needs of the rules package's repo config, in one place.

// configPaths are where a repo keeps its config, tried in order.
var configPaths = []string{".github/planwarden.yml", ".planwarden.yml"}

// defaultDestroyWorkflow is what /destroy-staging dispatches for staging
// when the config says nothing.
const defaultDestroyWorkflow = "destroy-staging.yml"

func parseConfig(file string, data []byte) (*rules.Config, error) {
	return nil, fmt.Errorf("%s: this build cannot read repo configs yet", file)
}

// configAnnotations turns a config error into annotations on the file.
func configAnnotations(err error) []comment.Annotation { return nil }

// destroyWorkflow says which workflow /destroy-staging dispatches for env,
// and false when env may not be destroyed.
func destroyWorkflow(cfg *rules.Config, env string) (string, bool) {
	if env == "staging" {
		return defaultDestroyWorkflow, true
	}
	return "", false
}
