package rules

import (
	"fmt"
	"path"
	"strings"
)

// CommentConfig says what the review's outputs show of plan values.
type CommentConfig struct {
	ShowText []string `yaml:"show_text,omitempty" doc:"Resource types or addresses (shell patterns: aws_instance, module.app.*, output.endpoint) whose attribute values are shown as they are, scripts and documents included, instead of a summary with a digest; secrets found by their marks, names or formats stay hidden. Default: none (docs/secrets.md)."`
}

// ShowsText reports whether the values of a resource of this type and
// address (an output: "output.NAME") are shown as they are
// (comment.show_text): a pattern matches the type or the address.
func (c *Config) ShowsText(typ, address string) bool {
	if c == nil {
		return false
	}
	for _, p := range c.Comment.ShowText {
		if ok, _ := path.Match(p, typ); ok && typ != "" {
			return true
		}
		if ok, _ := path.Match(p, address); ok && address != "" {
			return true
		}
	}
	return false
}

func (ps *problems) checkShowText(patterns []string) {
	for i, p := range patterns {
		q := fmt.Sprintf("comment.show_text[%d]", i)
		if strings.TrimSpace(p) == "" {
			ps.at(q, "expected a resource type or address pattern such as aws_instance or module.app.*, got an empty string")
			continue
		}
		if _, err := path.Match(p, ""); err != nil {
			ps.at(q, "expected a resource type or address shell pattern such as module.app.*, got %q (%v)", p, err)
		}
	}
}
