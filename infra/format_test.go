package infra

import "testing"

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
