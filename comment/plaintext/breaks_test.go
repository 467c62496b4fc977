package plaintext

import "testing"

// A <br> inside a table cell or paragraph (the comment uses it to stack
// lines) is a line break in the terminal.
func TestPlainTextBreaksAtBR(t *testing.T) {
	if got, want := Render("one<br>two<BR/>three\n"), "one\ntwo\nthree\n"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}
