package infra

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFormatUSD(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		v      float64
		symbol string
		want   string
	}{
		"small":                               {3.823, "$", "$3.82"},
		"thousands":                           {4238.377, "$", "$4,238.38"},
		"negative":                            {-1234.5, "$", "-$1,234.50"},
		"millions":                            {1234567.891, "$", "$1,234,567.89"},
		"markdown escaped":                    {-5.806, `\$`, `-\$5.81`},
		"zero":                                {0, "$", "$0.00"},
		"half a cent rounds away from zero":   {128.555, "$", "$128.56"},
		"negative half a cent":                {-128.555, "$", "-$128.56"},
		"binary 2.675 is still half a cent":   {2.675, "$", "$2.68"},
		"just under half a cent rounds down":  {1.004999, "$", "$1.00"},
		"rounding carries into the thousands": {999.995, "$", "$1,000.00"},
		"a negative that rounds to zero":      {-0.004, "$", "$0.00"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := FormatUSD(tc.v, tc.symbol); got != tc.want {
				t.Errorf("FormatUSD(%v) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

// TestFormatUSDMatchesSlowPath holds FormatUSD's digit loop to the
// formatting it replaced (FormatFloat, ParseInt, Sprintf) over edge
// amounts and a spread of random ones, both signs.
func TestFormatUSDMatchesSlowPath(t *testing.T) {
	t.Parallel()
	vals := []float64{0, 0.004999, 0.005, 0.0049999999, 1, 9.99, 128.555, 128.545, 999.995, 999999.995,
		1234567.891, 1e14 + 0.125, 999999999999999.9, 1e15, 1e16 + 0.5, 1e17, 9.2e16, 1e18, 5e-324, 1.7976931348623157e308}
	r := rand.New(rand.NewPCG(12, 7))
	for i := 0; i < 20000; i++ {
		vals = append(vals, r.Float64()*math.Pow(10, float64(r.IntN(17))))
	}
	for _, v := range vals {
		for _, x := range []float64{v, -v} {
			sign, abs := "", x
			if abs < 0 {
				sign, abs = "-", -abs
			}
			cents := roundCentsSlow(abs)
			if cents == 0 {
				sign = ""
			}
			if got, want := FormatUSD(x, "$"), formatUSDSlow(sign, "$", cents); got != want {
				t.Fatalf("FormatUSD(%v) = %q, the slow path gives %q", x, got, want)
			}
		}
	}
}
