package infra

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatUSD writes an amount with two decimals and thousands separators,
// the sign first and then the currency symbol: FormatUSD(-1234.5, "$") is
// "-$1,234.50". Renderers pass the symbol they need (markdown escapes it).
//
// Cents round half away from zero on the figure as planwarden computes it
// (to a millionth of a dollar): 128.555 is "$128.56", although the float
// nearest 128.555 is a hair below it.
func FormatUSD(v float64, symbol string) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	cents := roundCents(v)
	if cents == 0 {
		sign = ""
	}
	if cents < 0 {
		return formatUSDSlow(sign, symbol, cents) // an overflowed amount, as it always read
	}
	var buf, digits [48]byte
	b := append(append(buf[:0], sign...), symbol...)
	whole := strconv.AppendInt(digits[:0], cents/100, 10)
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, d)
	}
	return string(append(b, '.', byte('0'+cents%100/10), byte('0'+cents%10)))
}

func formatUSDSlow(sign, symbol string, cents int64) string {
	whole := strconv.FormatInt(cents/100, 10)
	frac := fmt.Sprintf("%02d", cents%100)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + symbol + b.String() + "." + frac
}

// roundCents is a non-negative amount in whole cents, half away from zero,
// decided on its decimal digits to the millionth so that float noise
// (128.555 stored as 128.55499999...) does not round the wrong way.
func roundCents(v float64) int64 {
	var buf [64]byte
	b := strconv.AppendFloat(buf[:0], v, 'f', 6, 64)
	dot := bytes.IndexByte(b, '.')
	if dot < 1 || dot > 15 {
		return roundCentsSlow(v)
	}
	var c int64
	for _, d := range b[:dot] {
		if d < '0' || d > '9' {
			return roundCentsSlow(v)
		}
		c = c*10 + int64(d-'0')
	}
	c = c*100 + int64(b[dot+1]-'0')*10 + int64(b[dot+2]-'0')
	if b[dot+3] >= '5' {
		c++
	}
	return c
}

// roundCentsSlow is roundCents for what the digit loop does not take
// (a sign, 16 or more whole digits).
func roundCentsSlow(v float64) int64 {
	s := strconv.FormatFloat(v, 'f', 6, 64)
	whole, frac, _ := strings.Cut(s, ".")
	c, err := strconv.ParseInt(whole+frac[:2], 10, 64)
	if err != nil {
		return int64(math.Round(v * 100))
	}
	if frac[2] >= '5' {
		c++
	}
	return c
}
