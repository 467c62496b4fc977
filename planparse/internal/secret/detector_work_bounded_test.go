package secret

import (
	"encoding/base64"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// lines builds a text of at least size bytes from line(i), with a fixed
// random source for the lines' random parts.
func lines(size int, line func(r *rand.Rand, i int) string) string {
	r := rand.New(rand.NewSource(7))
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(line(r, i))
		b.WriteByte('\n')
	}
	return b.String()
}

func randomOf(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// keywordSoup holds every keyword of every rule, and no assignment: each
// window runs every rule's regex and none matches.
func keywordSoup(size int) string {
	var words []string
	for _, r := range getDetector().rules {
		words = append(words, r.keywords...)
	}
	soup := strings.Join(words, " ")
	return strings.Repeat(soup+"\n", size/len(soup)+1)
}

// hostileValues are values whose search, unbounded, costs minutes at 20 MB
// (a match on every line, or every rule's regex on every window); at 320
// KiB they are past the value's budget.
func hostileValues() map[string]string {
	const size = 320 << 10
	return map[string]string{
		"WEIGHTS_KEY= lines": lines(size, func(r *rand.Rand, _ int) string { return "WEIGHTS_KEY=" + randomOf(r, alnum, 40) }),
		"password= lines":    lines(size, func(r *rand.Rand, _ int) string { return "password=" + randomOf(r, alnum, 20) }),
		"AWS access key ids": lines(size, func(r *rand.Rand, _ int) string { return "AKIA" + randomOf(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16) }),
		"base64 lines holding DB_PASS=": lines(size, func(r *rand.Rand, _ int) string {
			return base64.StdEncoding.EncodeToString([]byte("DB_PASS=" + randomOf(r, alnum, 30) + "\n"))
		}),
		"every rule's keyword": keywordSoup(size),
		"YAML of secret names": lines(size, func(r *rand.Rand, i int) string {
			return "db_password_" + randomOf(r, "abcdef", 8) + ": " + randomOf(r, alnum, 24)
		}),
	}
}

// TestAValueTooCostlyToSearchIsFoundWhole: a value whose search would read
// or judge more than a value's budget is found secret whole (hidden, never
// shown) and the search stops there: the work done, counted in regex runs,
// bytes read and matches judged, stays within the budget whatever the
// value's size. What was found before the budget ran out is still reported.
func TestAValueTooCostlyToSearchIsFoundWhole(t *testing.T) {
	t.Parallel()
	for what, v := range hostileValues() {
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			w := newWork(nil)
			var found []string
			if !findWork(v, "", w, func(x string) { found = append(found, x) }) {
				t.Fatal("not found secret")
			}
			if !slices.Contains(found, v) {
				t.Errorf("the value is not found whole (%d findings)", len(found))
			}
			if !w.over {
				t.Error("the search ended within the budget: the value is not hostile enough to test the bound")
			}
			if w.matched > valueMatchBudget+1 || w.scanned > valueScanBudget+MaxScanLen || w.runs > valueScanBudget/MinScanLen {
				t.Errorf("work: %d matches judged, %d bytes read in %d runs; want at most %d, %d", w.matched, w.scanned, w.runs, valueMatchBudget+1, valueScanBudget+MaxScanLen)
			}
			if !Has(v, "") {
				t.Error("Has says the value holds no secret")
			}
		})
	}
	// What was found before the budget ran out is kept: the first line's key.
	v := hostileValues()["WEIGHTS_KEY= lines"]
	first := strings.TrimPrefix(v[:strings.IndexByte(v, '\n')], "WEIGHTS_KEY=")
	var found []string
	Find(v, "", func(x string) { found = append(found, x) })
	if !slices.Contains(found, first) || !slices.Contains(found, v) {
		t.Errorf("found %d values; want the first line's key and the whole value", len(found))
	}
}

// honestScript is a long bootstrap script of a GPU node: keywords of the
// rules (api, token, key, auth) in ordinary lines, and secret when holding
// the line with DB_PASS.
func honestScript(withSecret bool) string {
	body := []string{
		"#!/bin/bash",
		"set -euo pipefail",
		"apt-get install -y nvidia-driver-535 cuda-toolkit-12-4",
		"aws s3 cp s3://models/llama/weights.bin /opt/models/ --region us-east-1",
		"export MODEL_PATH=/opt/models/weights.bin",
		"curl -sf -H 'Accept: application/json' https://api.example.com/health",
		"# the token is refreshed by the agent; see docs/auth.md",
		"systemctl enable --now trainer.service",
		"echo \"key rotation handled by KMS\" >> /var/log/bootstrap.log",
	}
	var b strings.Builder
	for i := 0; b.Len() < 128<<10; i++ {
		if withSecret && i == 900 {
			b.WriteString("export DB_PASS=Hunter2-prod-9x\n")
		}
		b.WriteString(body[i%len(body)])
		b.WriteByte('\n')
	}
	return b.String()
}

// TestAnHonestLongScriptIsSearchedWithinItsBudget is the twin: a long
// script with keywords on most lines and one password is searched in full
// within the budget; exactly the password is found, not the script whole.
// Without the password nothing is.
func TestAnHonestLongScriptIsSearchedWithinItsBudget(t *testing.T) {
	t.Parallel()
	w := newWork(nil)
	found := map[string]bool{}
	findWork(honestScript(true), "", w, func(x string) { found[x] = true })
	if w.over || len(found) != 1 || !found["Hunter2-prod-9x"] {
		t.Errorf("found %d values (budget spent: %v); want only the password", len(found), w.over)
	}
	if Has(honestScript(false), "") {
		t.Error("the script without the password is found secret")
	}
	Find(honestScript(false), "", func(x string) { t.Errorf("found %.40q in the script without the password", x) })
}

// TestAPlanSpentBudgetHidesItsLaterValues: a plan's values share a budget
// (the Set's); once spent, every value searched after it is found whole,
// while the plan's earlier findings stay. A short value, and a name's
// verdict, are unaffected. Its twin: the same value searched for a fresh
// plan yields only its password.
func TestAPlanSpentBudgetHidesItsLaterValues(t *testing.T) {
	t.Parallel()
	plan := NewSet()
	plan.work.matchLimit = 100
	dense := lines(200*53, func(r *rand.Rand, _ int) string { return "WEIGHTS_KEY=" + randomOf(r, alnum, 40) })
	var found []string
	plan.Find(dense, "", func(x string) { found = append(found, x) })
	if !plan.Budget().Exhausted() || !slices.Contains(found, dense) || len(found) < 50 {
		t.Fatalf("the dense value: %d findings, budget spent %v; want its keys and the whole value, and the plan's budget spent", len(found), plan.Budget().Exhausted())
	}
	script := honestScript(true)
	found = nil
	plan.Find(script, "", func(x string) { found = append(found, x) })
	if !slices.Equal(found, []string{script}) {
		t.Errorf("after the plan's budget is spent, a script is found as %d values; want it whole", len(found))
	}
	if !plan.HasClass(honestScript(false), "", 0) {
		t.Error("after the plan's budget is spent, a script is not secret")
	}
	if plan.HasClass("short value", "", 0) || !plan.HasClass("Hunter2-prod-9x", "db_password", Classify("db_password")) {
		t.Error("a short value, or a value under a secret name, is judged otherwise once the budget is spent")
	}

	fresh := NewSet()
	found = nil
	fresh.Find(script, "", func(x string) { found = append(found, x) })
	if !slices.Equal(found, []string{"Hunter2-prod-9x"}) {
		t.Errorf("a fresh plan finds %d values in the script; want the password", len(found))
	}
}
