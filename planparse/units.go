package planparse

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"strings"
)

// This file splits what Terragrunt writes for a run across units
// (`terragrunt run --all -- show -json tfplan`, or the older
// `terragrunt run-all show -json tfplan`) into one plan document per
// unit: the documents one per line or simply concatenated (with
// --tf-forward-stdout, --log-disable, or a Terragrunt that prints tofu's
// stdout as it is), or Terragrunt's log lines carrying each unit's stdout
// (--log-format json: {"level":"stdout","working-dir":...,"msg":...}; the
// default pretty format: "14:20:38.431 STDOUT [units/gpu] tofu: {...}").
// Parse reads one document: callers split first (SplitUnits) when Parse
// says a file holds more than one, or is no plan (see MaybeUnits).

// Unit is one plan document of a file that holds several.
type Unit struct {
	// Dir is the unit's working directory as the output names it,
	// relative to the units' common directory ("" when the output does
	// not name it: the documents were printed as they are).
	Dir string
	// Data is the document: a view of the input, or (from a log line)
	// a copy.
	Data []byte
}

// MaxUnits bounds how many documents SplitUnits returns.
const MaxUnits = 4096

// MaybeUnits is a cheap test for what SplitUnits can split: input that is
// no single JSON document starting on its first line (a log line's time,
// or a first line that is a whole JSON object with more after it). A
// `terraform show -json` plan, one line, costs one search for a newline.
func MaybeUnits(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	if i == len(data) {
		return false
	}
	if data[i] != '{' {
		return data[i] >= '0' && data[i] <= '9' || data[i] == 0x1b // a pretty log line's time, maybe coloured
	}
	nl := bytes.IndexByte(data[i:], '\n')
	if nl < 0 || len(bytes.TrimSpace(data[i+nl:])) == 0 {
		return false
	}
	first := bytes.TrimSpace(data[i : i+nl])
	return len(first) > 1 && first[len(first)-1] == '}'
}

// SplitUnits splits data into its units' plan documents. ok is false when
// data holds one document (or none SplitUnits recognises): read it with
// Parse. Log lines that are not a unit's stdout (Terragrunt's own INFO,
// a unit's stderr) are left out.
func SplitUnits(data []byte) (units []Unit, ok bool) {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if us, ok := logUnits(data); ok {
		return us, true
	}
	docs := splitDocuments(data)
	if len(docs) < 2 {
		return nil, false
	}
	for _, d := range docs {
		units = append(units, Unit{Data: d})
	}
	return units, true
}

// splitDocuments returns the JSON values data holds one after another
// (views of data), or nil when anything between them is not JSON.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	i := 0
	for {
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i == len(data) {
			return docs
		}
		if data[i] != '{' && data[i] != '[' || len(docs) == MaxUnits {
			return nil
		}
		end := valueEnd(data, i)
		if end < 0 {
			return nil
		}
		docs = append(docs, data[i:end:end])
		i = end
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// valueEnd finds the end of the object or array at data[i], counting
// brackets outside strings; -1 when it does not end. Parse validates the
// document itself.
func valueEnd(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// prettyStdout is a pretty-format log line of a unit's stdout:
// "14:20:38.431 STDOUT [units/gpu] tofu: {...}".
var prettyStdout = regexp.MustCompile(`^\S+\s+STDOUT\s+\[([^\]]+)\]\s+(?:[\w.-]+: )?(.*)$`)

// ansi matches terminal colour escapes.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// logUnits reads Terragrunt log lines: each unit's stdout lines, joined in
// order, are its document.
func logUnits(data []byte) ([]Unit, bool) {
	type unit struct {
		dir   string
		lines []string
	}
	var order []*unit
	byDir := map[string]*unit{}
	add := func(dir, line string) {
		u := byDir[dir]
		if u == nil {
			if len(order) == MaxUnits {
				return
			}
			u = &unit{dir: dir}
			byDir[dir] = u
			order = append(order, u)
		}
		u.lines = append(u.lines, line)
	}
	isLog := false
	for len(data) > 0 {
		line := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl], data[nl+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '{' {
			if !bytes.Contains(line[:min(len(line), 256)], []byte(`"level"`)) {
				return nil, false // a document (a plan starts with format_version), not a log line
			}
			var l struct {
				Level *string `json:"level"`
				Dir   string  `json:"working-dir"`
				Msg   *string `json:"msg"`
			}
			if json.Unmarshal(line, &l) != nil || l.Level == nil || l.Msg == nil {
				return nil, false // a JSON line that is no log line: documents, not a log
			}
			isLog = true
			if strings.EqualFold(*l.Level, "stdout") {
				add(l.Dir, *l.Msg)
			}
			continue
		}
		m := prettyStdout.FindSubmatch(ansi.ReplaceAll(line, nil))
		if m == nil {
			if !isLog && !looksLikeLogLine(line) {
				return nil, false
			}
			isLog = true
			continue
		}
		isLog = true
		add(string(m[1]), string(m[2]))
	}
	if !isLog || len(order) == 0 {
		return nil, false
	}
	dirs := make([]string, len(order))
	for i, u := range order {
		dirs[i] = u.dir
	}
	rel := relativeDirs(dirs)
	var out []Unit
	for i, u := range order {
		doc := []byte(strings.Join(u.lines, "\n"))
		docs := splitDocuments(doc)
		if len(docs) == 0 {
			continue // a unit that printed no JSON (a failed show): its error is on stderr
		}
		for _, d := range docs {
			out = append(out, Unit{Dir: rel[i], Data: d})
		}
	}
	return out, len(out) > 0
}

// looksLikeLogLine recognises a Terragrunt pretty-format line that is not
// a unit's stdout: "14:20:38.431 INFO   ...".
func looksLikeLogLine(line []byte) bool {
	f := bytes.Fields(ansi.ReplaceAll(line, nil))
	if len(f) < 2 || len(f[0]) < 5 || f[0][2] != ':' {
		return false
	}
	switch strings.ToUpper(string(f[1])) {
	case "INFO", "WARN", "ERROR", "DEBUG", "TRACE", "STDERR", "STDOUT":
		return true
	}
	return false
}

// relativeDirs makes the units' directories relative to their common
// parent (a lone unit keeps its last element); relative ones stay.
func relativeDirs(dirs []string) []string {
	out := make([]string, len(dirs))
	common := ""
	abs := true
	for i, d := range dirs {
		if d == "" {
			abs = false // a log line without working-dir: the unit is named by its order
			continue
		}
		d = path.Clean(strings.ReplaceAll(d, `\`, "/"))
		out[i] = d
		abs = abs && strings.HasPrefix(d, "/")
		if i == 0 {
			common = path.Dir(d)
			if len(dirs) > 1 {
				common = d
			}
			continue
		}
		for common != "/" && common != "." && d != common && !strings.HasPrefix(d, common+"/") {
			common = path.Dir(common)
		}
	}
	if !abs {
		for i, d := range out {
			if d == "." {
				d = ""
			}
			out[i] = strings.TrimPrefix(d, "./")
		}
		return out
	}
	for i, d := range out {
		if r := strings.TrimPrefix(strings.TrimPrefix(d, common), "/"); r != "" {
			out[i] = r
		} else {
			out[i] = path.Base(d)
		}
	}
	return out
}
