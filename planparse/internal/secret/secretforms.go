package secret

import (
	"encoding/hex"
	"net/url"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// secretForms returns a copy of the secret x (a view of a plan, maybe) and
// the forms the secret set adds with it: lower and upper case, query- and
// path-escaped, hex. For an ASCII secret the copy, the cases and the hex
// are made in one allocation (four before: a brownfield plan adds
// thousands of secrets).
func secretForms(x string) [6]string {
	n := len(x)
	for i := 0; i < n; i++ {
		if x[i] >= 0x80 {
			c := strings.Clone(x)
			return [6]string{c, strings.ToLower(c), strings.ToUpper(c), url.QueryEscape(c), url.PathEscape(c), hex.EncodeToString([]byte(c))}
		}
	}
	if n == 0 {
		return [6]string{}
	}
	buf := make([]byte, 5*n)
	copy(buf, x)
	for i := 0; i < n; i++ {
		lower, upper := x[i], x[i]
		if lower >= 'A' && lower <= 'Z' {
			lower += 'a' - 'A'
		}
		if upper >= 'a' && upper <= 'z' {
			upper -= 'a' - 'A'
		}
		buf[n+i], buf[2*n+i] = lower, upper
	}
	hex.Encode(buf[3*n:], buf[:n])
	all := jsonscan.View(buf)
	c := all[:n]
	return [6]string{c, all[n : 2*n], all[2*n : 3*n], url.QueryEscape(c), url.PathEscape(c), all[3*n:]}
}
