package planparse

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// A YAML document held in a string (a Helm release's values) is text the
// comment summarizes, but the review reads it: infra finds a release's GPU
// limits and replicas in it. `planwarden redact` therefore writes it as
// its placeholder on a comment line, then the YAML with every leaf and key
// judged as a value's are (shownOnly): what the comment would show of
// each stays, everything else is a placeholder, comments go. The review
// reads the whole as the text it stands for (parseTextPlaceholder reads
// the first line); the YAML reader skips the comment.

// yamlPrefix starts a YAML text's placeholder: "# (redacted text, ...)".
const yamlPrefix = "# " + textPrefix

// yamlText returns the redacted form of s when s is one YAML mapping of
// more than one line that holds only plain data (no anchors, aliases,
// merge keys or custom tags), else false.
func (z sanitizer) yamlText(steps []string, s string) (string, bool) {
	if len(s) > maxDocument || !strings.Contains(strings.TrimSpace(s), "\n") {
		return "", false
	}
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc yaml.Node
	if dec.Decode(&doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return "", false
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return "", false // more than one document
	}
	doc.HeadComment, doc.LineComment, doc.FootComment = "", "", ""
	if !z.yamlNode(steps, doc.Content[0]) {
		return "", false
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(&doc) != nil || enc.Close() != nil {
		return "", false
	}
	return "# " + z.textPlaceholder(s) + "\n" + b.String(), true
}

// yamlNode redacts n, at the steps of its path, in place; false when n
// holds what yamlText does not redact.
func (z sanitizer) yamlNode(steps []string, n *yaml.Node) bool {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" || k.Anchor != "" {
				return false
			}
			k.HeadComment, k.LineComment, k.FootComment = "", "", ""
			key := k.Value
			if !keyShown(key) {
				k.Value, k.Style, k.Tag = z.keyText(key), yaml.DoubleQuotedStyle, "!!str"
			}
			if !z.yamlNode(append(steps[:len(steps):len(steps)], key), v) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		for _, e := range n.Content {
			if !z.yamlNode(append(steps[:len(steps):len(steps)], indexStep), e) {
				return false
			}
		}
		return true
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int", "!!float", "!!bool", "!!null":
			return true
		case "!!str", "!!timestamp", "!!binary":
			if n.ShortTag() == "!!str" && !textPlace(steps) && shownString(n.Value) {
				return true
			}
			n.Value, n.Style, n.Tag = z.textPlaceholder(n.Value), yaml.DoubleQuotedStyle, "!!str"
			return true
		}
	}
	return false
}
