package infra

import "testing"

func TestFormatUSD(t *testing.T) {
	tests := map[string]struct {
		v      float64
		symbol string
		want   string
	}{
		"small":            {3.823, "$", "$3.82"},
		"thousands":        {4238.377, "$", "$4,238.38"},
		"negative":         {-1234.5, "$", "-$1,234.50"},
		"millions":         {1234567.891, "$", "$1,234,567.89"},
		"markdown escaped": {-5.806, `\$`, `-\$5.81`},
		"zero":             {0, "$", "$0.00"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := FormatUSD(tc.v, tc.symbol); got != tc.want {
				t.Errorf("FormatUSD(%v) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}
