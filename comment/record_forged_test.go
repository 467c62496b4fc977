package comment

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/review"
)

// A record whose digest is not that of the changes it lists (edited, or
// made by hand) is refused, and its honest twin is read.
func TestRecordThatDoesNotMatchItsChangesIsRefused(t *testing.T) {
	t.Parallel()
	ids := []review.ChangeID{{Address: "aws_s3_bucket.logs", Action: "create", DiffDigest: strings.Repeat("a", 32)}}
	honest := review.ChangeSet{Project: "gpu", Verdict: "pass", Complete: true, Digest: review.SetDigest(ids), Count: 1, Changes: ids}
	forged := honest
	forged.Digest = strings.Repeat("0", 32)
	tests := map[string]struct {
		set review.ChangeSet
		ok  bool
	}{
		"honest": {honest, true},
		"forged": {forged, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			text := "review text\n\n" + encodeRecord(Record{Scheme: review.DigestScheme, Conclusion: "success", Projects: []review.ChangeSet{tc.set}})
			_, err := ParseRecord(text)
			if tc.ok != (err == nil) || !tc.ok && !strings.Contains(err.Error(), "does not match its changes") {
				t.Errorf("ParseRecord: %v; want ok %v", err, tc.ok)
			}
		})
	}
}
