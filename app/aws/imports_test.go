package aws_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Only this package (and its test helpers) may import aws-sdk-go-v2; the
// Lambda entry builds the adapters through Connect.
func TestOnlyThisPackageImportsTheAWSSDK(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-e", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/planwarden/planwarden/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const here = "github.com/planwarden/planwarden/app/aws"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if pkg == here || strings.HasPrefix(pkg, here+"/") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "github.com/aws/aws-sdk-go-v2") || strings.HasPrefix(imp, "github.com/aws/smithy-go") {
				t.Errorf("%s imports %s: AWS SDK imports belong in app/aws", pkg, imp)
			}
		}
	}
}
