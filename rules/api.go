package rules

// Config is a repo's planwarden configuration. (Placeholder until the rules issue lands.)
type Config struct{}

// DefaultConfig is the configuration that applies when a repo has none.
func DefaultConfig() *Config { return &Config{} }

// Result is the outcome of evaluating projects.
type Result struct {
	Findings []Finding
	Verdict  Verdict
}

// Evaluate runs every rule over the projects and applies overrides.
func (c *Config) Evaluate(projects []Project, overrides []Override) Result {
	return Result{Verdict: VerdictPass, Findings: []Finding{}}
}

// EnvironmentOf returns the environment the config gives a project, or "".
func (c *Config) EnvironmentOf(project string) string { return "" }

// ConfigPaths are where a repo keeps its config, in the order they are tried.
var ConfigPaths = []string{".github/planwarden.yml", ".planwarden.yml"}

// LoadConfig reads and parses a config file.
func LoadConfig(path string) (*Config, error) { return DefaultConfig(), nil }
