package worklog

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// A GitHub token shape (generated, not real).
const logToken = "ghp_Zk29vLmQ0pW8rT5yN3xC6bA7sD1fG4hJ2kL9"

func TestRedactingHandlerHidesSecretsInEveryString(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(Redacting(slog.NewJSONHandler(&buf, nil)))
	log = log.With("plan", "plans/"+logToken+".json")
	log.Error("parse plans/"+logToken+".json failed",
		"address", `aws_ssm_parameter.p["`+logToken+`"]`,
		"err", fmt.Errorf("read: %w", errors.New("bad token "+logToken)),
		slog.Group("run", "ref", "refs/heads/"+logToken),
		"count", 3)
	out := buf.String()
	if strings.Contains(out, logToken) {
		t.Fatalf("the log line holds the token: %s", out)
	}
	for _, keep := range []string{`"count":3`, `aws_ssm_parameter.p[\"(sensitive)\"]`, "bad token (sensitive)", `"run":{"ref":"refs/heads/(sensitive)"}`, "failed"} {
		if !strings.Contains(out, keep) {
			t.Errorf("the log line lost %s: %s", keep, out)
		}
	}
}
