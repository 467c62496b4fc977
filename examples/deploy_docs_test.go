package examples

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// templateSection returns the keys of a top-level mapping of template.yaml
// (Parameters, Outputs, Resources) with their nodes. The template is read
// as nodes: CloudFormation's !Sub, !Ref and !GetAtt tags are not values
// yaml.v3 knows, and only the keys and a few scalars matter here.
func templateSection(t *testing.T, root *yaml.Node, name string) map[string]*yaml.Node {
	t.Helper()
	doc := root.Content[0]
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == name {
			out := map[string]*yaml.Node{}
			m := doc.Content[i+1]
			for j := 0; j+1 < len(m.Content); j += 2 {
				out[m.Content[j].Value] = m.Content[j+1]
			}
			return out
		}
	}
	t.Fatalf("template.yaml: no top-level %s", name)
	return nil
}

// field is the scalar under key in a mapping node, "" when absent.
func field(n *yaml.Node, key string) string {
	for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Value
		}
	}
	return ""
}

func child(n *yaml.Node, key string) *yaml.Node {
	for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// tableRows returns the first column (unquoted) and second column of the
// markdown table whose header starts with header, under the line intro.
func tableRows(t *testing.T, doc, intro, header string) map[string]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, intro)
	if !ok {
		t.Fatalf("docs/deploy.md: no %q", intro)
	}
	_, rest, ok = strings.Cut(rest, header)
	if !ok {
		t.Fatalf("docs/deploy.md: no table %q after %q", header, intro)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(rest, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			continue
		}
		for _, name := range strings.Split(cells[0], ",") {
			rows[strings.Trim(strings.TrimSpace(name), "`")] = strings.Trim(strings.TrimSpace(cells[1]), "`")
		}
	}
	return rows
}

// TestDeployDocsNameTheTemplate holds docs/deploy.md to template.yaml: an
// operator following it types the parameter names, reads the outputs into
// shell variables named after them, and relies on `sam build` going
// through the Makefile. A renamed parameter or output, a changed default,
// or a template that drops BuildMethod: makefile makes a step wrong.
func TestDeployDocsNameTheTemplate(t *testing.T) {
	tplData, err := os.ReadFile("../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docData, err := os.ReadFile("../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(tplData, &root); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	doc := string(docData)
	params := templateSection(t, &root, "Parameters")
	outputs := templateSection(t, &root, "Outputs")
	resources := templateSection(t, &root, "Resources")

	documented := tableRows(t, doc, "\nParameters:\n", "| parameter |")
	for name, p := range params {
		def, ok := documented[name]
		if !ok {
			t.Errorf("docs/deploy.md: parameter %s of template.yaml is not in the table", name)
			continue
		}
		want := field(p, "Default")
		switch {
		case want == "" && def != "(required)" && def != "empty":
			t.Errorf("docs/deploy.md: parameter %s default %q; the template has none (say (required) or empty)", name, def)
		case want != "" && def != want:
			t.Errorf("docs/deploy.md: parameter %s default %q, template.yaml says %q", name, def, want)
		}
	}
	for name := range documented {
		if _, ok := params[name]; !ok {
			t.Errorf("docs/deploy.md: parameter %s is not in template.yaml", name)
		}
	}

	docOutputs := tableRows(t, doc, "The stack's outputs:", "| output |")
	for name := range outputs {
		if _, ok := docOutputs[name]; !ok {
			t.Errorf("docs/deploy.md: output %s of template.yaml is not in the outputs table", name)
		}
	}
	for name := range docOutputs {
		if _, ok := outputs[name]; !ok {
			t.Errorf("docs/deploy.md: output %s is not in template.yaml", name)
		}
	}

	// The describe-stacks command exports each output under its own key;
	// every CamelCase shell variable the later steps use must be one.
	if !strings.Contains(doc, "--query 'Stacks[0].Outputs[].[OutputKey,OutputValue]'") {
		t.Errorf("docs/deploy.md: no describe-stacks command exporting the stack outputs")
	}
	used := regexp.MustCompile(`\$\{?([A-Z][a-z]+[A-Z][A-Za-z]*)`).FindAllStringSubmatch(doc, -1)
	if len(used) == 0 {
		t.Errorf("docs/deploy.md: no step uses an exported output")
	}
	for _, m := range used {
		if _, ok := outputs[m[1]]; !ok {
			t.Errorf("docs/deploy.md uses $%s, which the describe-stacks export does not set (no such output)", m[1])
		}
	}

	// The dead-letter timing the docs give comes from the queues' settings.
	flat := strings.Join(strings.Fields(doc), " ")
	queue := child(resources["JobsQueue"], "Properties")
	dlq := child(resources["JobsDeadLetterQueue"], "Properties")
	vis, _ := strconv.Atoi(field(queue, "VisibilityTimeout"))
	keep, _ := strconv.Atoi(field(queue, "MessageRetentionPeriod"))
	dlqKeep, _ := strconv.Atoi(field(dlq, "MessageRetentionPeriod"))
	if vis == 0 || keep == 0 || dlqKeep == 0 {
		t.Fatalf("template.yaml: JobsQueue VisibilityTimeout %d, MessageRetentionPeriod %d, JobsDeadLetterQueue MessageRetentionPeriod %d: want all set", vis, keep, dlqKeep)
	}
	maxReceive, _ := strconv.Atoi(field(params["MaxReceiveCount"], "Default"))
	for _, want := range []string{
		fmt.Sprintf("%d-minute visibility timeout", vis/60),
		fmt.Sprintf("%d such receives take about %s hours", maxReceive, strconv.FormatFloat(float64(maxReceive*vis)/3600, 'f', -1, 64)),
		fmt.Sprintf("kept %d days", dlqKeep/86400),
		fmt.Sprintf("keeps a message %d days", keep/86400),
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("docs/deploy.md: want %q (from template.yaml's queues)", want)
		}
	}

	// "sam build" alone keeps the small binary only through the Makefile.
	for _, fn := range []string{"ReceiverFunction", "WorkerFunction"} {
		r, ok := resources[fn]
		if !ok {
			t.Errorf("template.yaml: no %s, which docs/deploy.md describes", fn)
			continue
		}
		if got := field(child(r, "Metadata"), "BuildMethod"); got != "makefile" {
			t.Errorf("template.yaml: %s BuildMethod %q; docs/deploy.md says sam build runs the Makefile", fn, got)
		}
		if !slices.Contains(strings.Split(string(makefile), "\n"), "build-"+fn+":") {
			t.Errorf("Makefile: no build-%s target, which sam build runs", fn)
		}
	}
	if !regexp.MustCompile(`(?m)^deploy:`).Match(makefile) || !strings.Contains(doc, "make deploy") {
		t.Errorf("docs/deploy.md's make deploy needs a deploy target in the Makefile")
	}
}
