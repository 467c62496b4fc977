// Command tfjsondecode is the yardstick of BenchmarkReviewFigures:
// terraform-json's bare decode of a plan file, nothing else.
//
//	tfjsondecode PLAN.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"

	tfjson "github.com/hashicorp/terraform-json"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tfjsondecode PLAN.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var p tfjson.Plan
	if err := json.Unmarshal(data, &p); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[1], err)
		os.Exit(2)
	}
	runtime.KeepAlive(&p)
}
