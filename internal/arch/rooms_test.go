package arch

import (
	"slices"
	"strings"
	"testing"
)

// The worker's rooms (docs/architecture.md): app, the worker, is the top,
// and only the binaries import it; below it app/command may ask app/run for
// a review, never the other way round; app/publish, what every job writes,
// reaches neither; the config reader the runs and commands share
// (app/repoconfig) reaches neither either, and the worker's log
// (app/worklog) no room at all; the test doubles ship in no binary.
var rooms = []struct {
	// from are the packages the rule holds for (prefixes as matches reads
	// them), but not those of except.
	from, except []string
	// never may they import; deps says transitively (their whole
	// dependency list), else directly, tests included.
	never []string
	deps  bool
	why   string
}{
	{from: []string{""}, except: []string{"app", "cmd/"}, never: []string{module + "/app"}, deps: true,
		why: "nothing but the binaries (cmd/*) imports the worker, app"},
	{from: []string{"app/run", "app/run/"}, never: []string{module + "/app/command", module + "/app/command/"}, deps: true,
		why: "a run never reaches the commands: a command asks for a review, not the other way round"},
	{from: []string{"app/run", "app/run/", "app/command", "app/command/"}, never: []string{module + "/app"},
		why: "the rooms below the worker do not import it, tests included"},
	{from: []string{"app/publish", "app/publish/"}, never: []string{module + "/app", module + "/app/run", module + "/app/command"}, deps: true,
		why: "what every job writes (app/publish) reaches neither the runs nor the commands"},
	{from: []string{"app/repoconfig"}, never: []string{module + "/app", module + "/app/run", module + "/app/command"}, deps: true,
		why: "the config reader the runs and commands share reaches neither (a bad config is a publish.Final)"},
	{from: []string{"app/worklog"}, never: []string{module + "/app", module + "/app/run", module + "/app/command", module + "/app/publish"}, deps: true,
		why: "the worker's log reaches no room"},
	{from: []string{""}, except: []string{"app/porttest", "app/githubtest", "app/githubtest/", "app/aws/awstest"},
		never: []string{module + "/app/porttest", module + "/app/githubtest", module + "/app/aws/awstest"}, deps: true,
		why: "test doubles (app/porttest, app/githubtest, app/aws/awstest) ship in no binary: only tests import them"},
	// planparse's rooms: the model (planparse) imports its internal
	// packages, never the other way round; the scanner (jsonscan) and the
	// containers (mem) stand alone; the secret detector may use both.
	{from: []string{"planparse/internal/"}, never: []string{module + "/planparse", module + "/planparse/lockfile", module + "/planparse/plantest"}, deps: true,
		why: "planparse's internal packages never reach the model: planparse imports them"},
	{from: []string{"planparse/internal/"}, never: []string{module + "/planparse"},
		why: "planparse's internal packages do not import the model, tests included"},
	{from: []string{"planparse/internal/jsonscan", "planparse/internal/mem"}, never: []string{module + "/planparse/internal/"}, deps: true,
		why: "the JSON scanner and the containers stand alone (the secret detector uses them)"},
	{from: []string{""}, except: []string{"planparse", "planparse/"}, never: []string{module + "/planparse/internal/"},
		why: "only planparse reaches its internal packages"},
}

// roomViolations lists what breaks the rooms' rules in pkgs, one sentence
// each: the package, the import, the rule.
func roomViolations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		r := rel(p.ImportPath)
		if !strings.HasPrefix(p.ImportPath, module) {
			continue
		}
		for _, rule := range rooms {
			if !matchesRoom(r, rule.from) || matchesRoom(r, rule.except) {
				continue
			}
			list := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
			if rule.deps {
				list = p.Deps
			}
			for _, imp := range list {
				if imp != p.ImportPath && matches(imp, rule.never) {
					out = append(out, r+" imports "+rel(imp)+": "+rule.why)
				}
			}
		}
	}
	return out
}

// matchesRoom is matches for package paths relative to the module, where
// "" is every package.
func matchesRoom(r string, prefixes []string) bool {
	return slices.Contains(prefixes, "") || matches(r, prefixes)
}

func TestWorkerRooms(t *testing.T) {
	t.Parallel()
	for _, v := range roomViolations(goList(t, module+"/...")) {
		t.Error(v)
	}
}

// The rules must catch what they guard against: a made-up graph with one
// break of each, and its honest twin.
func TestWorkerRoomsCatchEachBreak(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		pkg  pkg
		want string
	}{
		"a room imports the worker": {pkg{ImportPath: module + "/app/run", Deps: []string{module + "/app"}}, "app/run imports app: nothing but the binaries"},
		"a run reaches a command":   {pkg{ImportPath: module + "/app/run", Deps: []string{module + "/app/command"}}, "app/run imports app/command: a run never reaches the commands"},
		"a test of a run imports the worker": {pkg{ImportPath: module + "/app/run", XTestImports: []string{module + "/app"}},
			"app/run imports app: the rooms below the worker do not import it"},
		"publish reaches a run":           {pkg{ImportPath: module + "/app/publish", Deps: []string{module + "/app/run"}}, "app/publish imports app/run: what every job writes"},
		"the config reader reaches a run": {pkg{ImportPath: module + "/app/repoconfig", Deps: []string{module + "/app/run"}}, "app/repoconfig imports app/run: the config reader"},
		"the log reaches publish":         {pkg{ImportPath: module + "/app/worklog", Deps: []string{module + "/app/publish"}}, "app/worklog imports app/publish: the worker's log"},
		"a test double ships":             {pkg{ImportPath: module + "/app/run", Deps: []string{module + "/app/porttest"}}, "app/run imports app/porttest: test doubles"},
		"the binaries import the worker":  {pkg{ImportPath: module + "/cmd/planwarden", Deps: []string{module + "/app", module + "/app/run"}}, ""},
		"a test uses a test double":       {pkg{ImportPath: module + "/app/run", TestImports: []string{module + "/app/porttest"}}, ""},
		"a command asks a run":            {pkg{ImportPath: module + "/app/command", Deps: []string{module + "/app/run", module + "/app/publish"}}, ""},
		"the secret detector reaches the model": {pkg{ImportPath: module + "/planparse/internal/secret", Deps: []string{module + "/planparse"}},
			"planparse/internal/secret imports planparse: planparse's internal packages never reach the model"},
		"a test of the scanner imports the model": {pkg{ImportPath: module + "/planparse/internal/jsonscan", XTestImports: []string{module + "/planparse"}},
			"planparse/internal/jsonscan imports planparse: planparse's internal packages do not import the model"},
		"the scanner uses the detector": {pkg{ImportPath: module + "/planparse/internal/jsonscan", Deps: []string{module + "/planparse/internal/secret"}},
			"planparse/internal/jsonscan imports planparse/internal/secret: the JSON scanner and the containers stand alone"},
		"rules reach into planparse": {pkg{ImportPath: module + "/rules", Imports: []string{module + "/planparse/internal/secret"}},
			"rules imports planparse/internal/secret: only planparse reaches"},
		"the model uses its rooms": {pkg{ImportPath: module + "/planparse", Imports: []string{module + "/planparse/internal/secret", module + "/planparse/internal/jsonscan"},
			Deps: []string{module + "/planparse/internal/secret", module + "/planparse/internal/jsonscan", module + "/planparse/internal/mem"}}, ""},
		"the detector uses the scanner": {pkg{ImportPath: module + "/planparse/internal/secret", Deps: []string{module + "/planparse/internal/jsonscan", module + "/planparse/internal/mem"}}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			got := roomViolations([]pkg{tc.pkg})
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("%v, want no violation", got)
			case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)):
				t.Errorf("%v, want one starting %q", got, tc.want)
			}
		})
	}
}
