package planparse

import (
	"strings"
	"testing"
)

// Each row names the guard of the allow-list (shown.go) that decides it;
// deleting that guard flips the row. Hidden rows are shapes real secrets
// take; shown rows are what a reviewer needs (SKUs, regions, ids, tags).
func TestShownStringByForm(t *testing.T) {
	t.Parallel()
	hex64 := strings.Repeat("0123456789abcdef", 4)
	tests := map[string]struct {
		in   string
		show bool
	}{
		// Tokens.
		"an Azure SKU":                                {"Standard_NC24ads_A100_v4", true},
		"an EC2 type":                                 {"p4d.24xlarge", true},
		"a region":                                    {"westus2", true},
		"an ARN with a wildcard":                      {"arn:aws:s3:::ml-artifacts/*", true},
		"an Azure resource id":                        {"/subscriptions/0b1f6471-1bf0-4dda-aec3-cb9272f09590/resourceGroups/ml/providers/Microsoft.Compute/virtualMachines/trainer", true},
		"an image tag":                                {"nvcr.io/nvidia/pytorch:24.05-py3", true},
		"a comma list of zones":                       {"1,2,3", true},
		"the empty string":                            {"", true},
		"a number as a string":                        {"8080", true},
		"a name in another script":                    {"Größe-Ü1", true},
		"maxToken: a long token is text":              {strings.Repeat("a", maxToken+1), false},
		"maxToken: a token at the limit shows":        {strings.Repeat("a", maxToken), true},
		"tokenRune: a query is text":                  {"https://api.example.com/v1/export?format=csv", false},
		"tokenRune: an ampersand":                     {"a&b", false},
		"tokenRune: a semicolon":                      {"Server=db;Database=app", false},
		"tokenRune: a plus":                           {"abc+def", false},
		"tokenRune: a percent escape":                 {"pa%24%24word", false},
		"tokenRune: an exclamation mark":              {"Spring2024!", false},
		"tokenRune: a quote":                          {`a"b`, false},
		"tokenRune: a newline":                        {"line1\nline2", false},
		"tokenRune: a zero-width space":               {"gpu\u200bpool", false},
		"shownScheme: https names a thing":            {"https://models.example.com/llama/v3", true},
		"shownScheme: s3":                             {"s3://ml-artifacts/checkpoints/step-100", true},
		"shownScheme: gs":                             {"gs://ml-artifacts/data", true},
		"shownScheme: a cache URL is text":            {"rediss://cache.internal:6380/0", false},
		"shownScheme: a database URL is text":         {"mongodb://db.internal:27017/app", false},
		"hasRandomRun: a generated key":               {"q7Lm2Xv9Rt4Wz8Kp3Nd6Ab5C", false},
		"hasRandomRun: a key inside a path":           {"hooks/T0/q7Lm2Xv9Rt4Wz8Kp3Nd6Ab5C/x", false},
		"hasRandomRun: one short of the run":          {"q7Lm2Xv9Rt4Wz8Kp3Nd6Ab5", true},
		"mixesClasses: a hex digest":                  {hex64, true},
		"mixesClasses: upper case and digits":         {"ABCDEFGHIJ0123456789KLMNOP", true},
		"mixesClasses: upper and lower, no digit":     {"StandardGpuNodePoolForTraining", true},
		"classChanges: a camelCase name with a digit": {"acceptanceTestResourceGroup1", true},
		"classChanges: a key changes class often":     {"aB3dE5gH7jK9mN1pQ3sT5vW7", false},
		"isLabel: a label":                            {"gpu=true", true},
		"isLabel: a taint":                            {"nvidia.com/gpu=present:NoSchedule", true},
		"isLabel: base64 padding":                     {"dXNlcjpwYXNzd29yZA=", false},
		"isLabel: an empty name":                      {"=value", false},
		"isLabel: two assignments":                    {"a=b=c", false},
		"isLabel: a name that is no name":             {"a:b=c", false},
		// @.
		"isMember: an e-mail address":            {"ml-team@example.com", true},
		"isMember: an IAM member":                {"serviceAccount:trainer@proj.iam.gserviceaccount.com", true},
		"isMember: userinfo with a password":     {"app:Hx7pQ2mK@db.internal", false},
		"isMember: a cache URL with a password":  {"rediss://:Hx7pQ2mK9v@cache.internal:6380", false},
		"isMember: an Oracle connect string":     {"scott/Hx7pQ2mK9v@//db.internal:1521/ORCLPDB1", false},
		"isMember: a JDBC thin string":           {"jdbc:oracle:thin:scott/Hx7pQ2mK9v@db.internal:1521:ORCL", false},
		"isMember: a domain without a dot":       {"alice@localhost", false},
		"isMember: an empty label":               {"alice@example..com", false},
		"isMember: an underscore in the domain":  {"alice@ex_ample.com", false},
		"isMember: no local part":                {"@example.com", false},
		"isMember: a generated local part":       {"q7Lm2Xv9Rt4Wz8Kp3Nd6Ab5C@example.com", false},
		"isDigestRef: an image pinned by digest": {"nvcr.io/nvidia/pytorch@sha256:" + hex64, true},
		"isDigestRef: a short digest":            {"nvcr.io/nvidia/pytorch@sha256:0123", false},
		"isDigestRef: not hex":                   {"app@sha256:" + strings.Repeat("z", 64), false},
		"isDigestRef: another algorithm":         {"app@md5:" + hex64, false},
		"isDigestRef: no name":                   {"@sha256:" + hex64, false},
		// Words.
		"shownProse: a tag value of words":               {"ML Platform", true},
		"shownProse: words and a short number":           {"GPU pool for team 7", true},
		"shownProse: words in parentheses":               {"Research (prod)", true},
		"shownProse: R&D and O'Brien":                    {"R&D O'Brien", true},
		"maxProse: a long sentence is text":              {strings.Repeat("word ", 13) + "words", false},
		"maxProseWords: nine words are text":             {"a b c d e f g h i", false},
		"plainWord: a password among words":              {"net user admin Hx7pQ2mK9v", false},
		"plainWord: a flag":                              {"mysql -pHx7pQ2mK9v", false},
		"plainWord: a long number":                       {"account 123456789012", false},
		"plainWord: a word ending in a number":           {"My bucket1", true},
		"plainWord: a word ending in a long number":      {"bucket 12345x bucket123456", false},
		"plainWord: digits inside a word":                {"pass Hx7pQ2mK", false},
		"plainWord: a number before an exclamation mark": {"use Spring2024! now", false},
		"plainWord: a number before a full stop":         {"in bucket1.", true},
		"plainWord: a word ending in a hyphen":           {"team- a", false},
		"plainWord: two hyphens in a row":                {"a--b c", false},
		"plainWord: a double space":                      {"a  b", false},
		"plainWord: a tab":                               {"a\tb", false},
		"plainWord: a command":                           {"docker login -u ci -p Hx7pQ2mK9v registry", false},
		"plainWord: a base64 pipe":                       {"echo aGk= | base64 -d", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := shownString(tc.in); got != tc.show {
				t.Errorf("shownString(%q) = %v, want %v", tc.in, got, tc.show)
			}
		})
	}
}

// A value under a name that holds commands or their environment is text
// however short; the same value elsewhere shows.
func TestShownPlaceByName(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		path string
		text bool
	}{
		"a plain attribute":                      {"instance_type", false},
		"commandNames: command":                  {"command", true},
		"commandNames: an argument":              {"container[0].args[1]", true},
		"commandNames: camelCase":                {"properties.settings.commandToExecute", true},
		"commandNames: a script in a key":        {`metadata["startup-script"]`, true},
		"commandNames: entrypoint":               {"entrypoint[0]", true},
		"commandCompounds: user_data":            {"user_data", true},
		"commandCompounds: customData":           {"properties.osProfile.customData", true},
		"commandCompounds: entry_point":          {"entry_point[0]", true},
		"envNames: a Lambda variable":            {"environment[0].variables.LOG_LEVEL", true},
		"envNames: an env entry's value":         {"env[0].value", true},
		"entryName: an env entry's name":         {"env[0].name", false},
		"entryName: a variable called name":      {"environment[0].variables.name", true},
		"envNames: an attribute named so":        {"environment", false},
		"envCompounds: app_settings":             {"app_settings.DB", true},
		"envCompounds: ARM appSettings":          {"properties.siteConfig.appSettings[0].value", true},
		"envNames: stack parameters":             {"parameters.DbPassword2", true},
		"dataMaps: a tag named like a command":   {"tags.command", false},
		"dataMaps: a label named like env":       {"labels.env", false},
		"hasWordIn: a word inside a longer word": {"commander", false},
		"hasWordIn: a compound inside a word":    {"xuser_data", false},
		"indexStep: a list under environment":    {"environment[0]", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := textPlace(pathSteps(tc.path)); got != tc.text {
				t.Errorf("textPlace(%q) = %v, want %v (steps %q)", tc.path, got, tc.text, pathSteps(tc.path))
			}
		})
	}
}

func TestPathSteps(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"a.b":                       {"a", "b"},
		"a[0].b":                    {"a", indexStep, "b"},
		`tags["cost center"]`:       {"tags", "cost center"},
		`m["a\"b"][2]`:              {"m", `a"b`, indexStep},
		`x["unterminated`:           {"x", `["unterminated`},
		"policy":                    {"policy"},
		`nested["k"].list[10].leaf`: {"nested", "k", "list", indexStep, "leaf"},
	}
	for in, want := range tests {
		got := pathSteps(in)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("pathSteps(%q) = %q, want %q", in, got, want)
		}
	}
}

// Names, messages and paths outside values.
func TestShownNameProsePath(t *testing.T) {
	t.Parallel()
	names := map[string]string{
		"p4d.24xlarge":               "p4d.24xlarge",
		"ML Platform":                "ML Platform",
		"mysql -pHx7pQ2mK9v":         "(text, 1 line)",
		"#!/bin/sh\nexit 0\n":        "(text, 2 lines)",
		"a\nb\nc":                    "(text, 3 lines)",
		"rediss://:Hx7pQ@cache:6380": "(text, 1 line)",
	}
	for in, want := range names {
		if got := ShownName(in); got != want {
			t.Errorf("ShownName(%q) = %q, want %q", in, got, want)
		}
	}
	prose := map[string]string{
		"Endpoint unhealthy": "Endpoint unhealthy",
		"login to https://svc.internal/health?key=Hx7pQ2mK9v failed": "login to (…) failed",
		"password 'Kx9#mP2$vL' rejected for db.internal:5432":        "password (…) rejected for db.internal:5432",
		"cannot reach rediss://:Hx7pQ2mK9v@cache.internal:6380.":     "cannot reach (…)",
		"replace_because_tainted":                                    "replace_because_tainted",
		"node i-0abc123 failed (exit 3)":                             "node i-0abc123 failed (exit 3)",
		"two\nlines":                                                 "two lines",
		"quoted \"prod\" is kept":                                    "quoted \"prod\" is kept",
		"password Spring2024! rejected":                              "password (…) rejected",
		"Timeout! node i-0abc123, retry.":                            "Timeout! node i-0abc123, retry.",
	}
	for in, want := range prose {
		if got := ShownProse(in); got != want {
			t.Errorf("ShownProse(%q) = %q, want %q", in, got, want)
		}
	}
	paths := map[string]bool{ // does the path keep its text
		`tags["cost-center"]`:                    true,
		"default_node_pool[0].vm_size":           true,
		`triggers["mysql -pHx7pQ2mK9v"]`:         false,
		`environment_map["a b c d e f g h i j"]`: false,
	}
	for in, keeps := range paths {
		got := ShownPath(in)
		if (got == in) != keeps {
			t.Errorf("ShownPath(%q) = %q; want it kept: %v", in, got, keeps)
		}
		if !keeps && !strings.Contains(got, `["(sensitive) `) {
			t.Errorf("ShownPath(%q) = %q; want a placeholder for the key", in, got)
		}
	}
}

func TestLineCountsAndDelta(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		before, after  string
		added, removed int
	}{
		"one line changed":              {"a\nb\nc\n", "a\nB\nc\n", 1, 1},
		"lines added":                   {"a\n", "a\nb\nc\n", 2, 0},
		"a line removed":                {"a\nb", "a", 0, 1},
		"a moved line counts nothing":   {"a\nb\n", "b\na\n", 0, 0},
		"a repeated line counted twice": {"x\n", "x\nx\nx\n", 2, 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			a, r := lineDelta(textLines(tc.before), textLines(tc.after))
			if a != tc.added || r != tc.removed {
				t.Errorf("lineDelta = +%d -%d, want +%d -%d", a, r, tc.added, tc.removed)
			}
		})
	}
	for in, want := range map[string]string{"": "1 line", "x": "1 line", "x\n": "1 line", "x\ny": "2 lines", "x\ny\n": "2 lines"} {
		if got := lineCount(in); got != want {
			t.Errorf("lineCount(%q) = %q, want %q", in, got, want)
		}
	}
}
