// Command compare is the Go side of make ycsb-fidelity: it checks
// mongoload's YCSB mode against YCSB's own code (bench/ycsb-fidelity, a
// Java driver over site.ycsb:core).
//
//	compare -spec                 prints the cases, for the Java driver's stdin
//	compare -ycsb FILE [-docs F]  draws the same cases from mongoload, compares
//	                              them with the Java driver's output FILE and
//	                              prints the table; with -docs, also writes it
//	                              into F between the fidelity markers
//
// It exits 1 when a row fails.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	spec := flag.Bool("spec", false, "print the cases for the Java driver")
	ycsbOut := flag.String("ycsb", "", "the Java driver's output")
	docs := flag.String("docs", "", "a Markdown file to write the table into, between the markers")
	seed := flag.Uint64("seed", 16, "mongoload's random seed")
	flag.Parse()
	cs := cases()
	if *spec {
		for _, c := range cs {
			fmt.Println(c.spec())
		}
		return
	}
	if *ycsbOut == "" {
		fmt.Fprintln(os.Stderr, "compare: give -spec or -ycsb FILE")
		os.Exit(2)
	}
	ys, err := readYCSB(*ycsbOut)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(2)
	}
	var rows []row
	var notes []string
	for _, c := range cs {
		y, ok := ys[c.name]
		if !ok {
			fmt.Fprintf(os.Stderr, "compare: the YCSB output has no case %s\n", c.name)
			os.Exit(2)
		}
		m, err := drawMongoload(c, *seed)
		if err != nil {
			fmt.Fprintf(os.Stderr, "compare: %s: %v\n", c.name, err)
			os.Exit(2)
		}
		for _, r := range c.compare(c, y, m) {
			if r.fail && c.purpose != "" && !strings.Contains(r.property, "not mongoload") {
				if len(notes) == 0 || notes[len(notes)-1] != c.purpose {
					notes = append(notes, c.purpose)
				}
				r.verdict, r.fail = fmt.Sprintf("differs on purpose (note %d)", len(notes)), false
			}
			rows = append(rows, r)
		}
	}
	table := markdown(rows)
	for i, n := range notes {
		table += fmt.Sprintf("\nNote %d: %s.\n", i+1, n)
	}
	fmt.Print(table)
	failed := 0
	for _, r := range rows {
		if r.fail {
			failed++
		}
	}
	fmt.Printf("\n%d rows, %d failed\n", len(rows), failed)
	if *docs != "" {
		if err := writeDocs(*docs, table); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(2)
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// readYCSB reads the Java driver's output: per case a "hist", "seq" or
// "num" line.
func readYCSB(path string) (map[string]*drawn, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]*drawn{}
	get := func(name string) *drawn {
		if out[name] == nil {
			out[name] = &drawn{hist: map[string]int64{}, nums: map[string]float64{}}
		}
		return out[name]
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 {
			continue
		}
		switch fs[0] {
		case "hist":
			d := get(fs[1])
			for _, kv := range fs[2:] {
				k, v, _ := strings.Cut(kv, ":")
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %q is not value:count", path, line, kv)
				}
				d.hist[k] += n
			}
		case "seq":
			get(fs[1]).seq = fs[2:]
		case "num":
			name, _, _ := strings.Cut(fs[1], ".")
			x, err := strconv.ParseFloat(fs[2], 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not a number", path, line, fs[2])
			}
			get(name).nums[fs[1]] = x
		default:
			return nil, fmt.Errorf("%s:%d: unknown line %q", path, line, fs[0])
		}
	}
	return out, sc.Err()
}

// markdown renders the rows as a Markdown table.
func markdown(rows []row) string {
	var b strings.Builder
	b.WriteString("| property | YCSB 0.17.0 | mongoload | tolerance | verdict |\n|---|---|---|---|---|\n")
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", esc(r.property), esc(r.ycsb), esc(r.mongoload), esc(r.tolerance), esc(r.verdict))
	}
	return b.String()
}

// The markers between which -docs writes the table.
const (
	beginMarker = "<!-- ycsb-fidelity:begin (make ycsb-fidelity writes this table; do not edit) -->"
	endMarker   = "<!-- ycsb-fidelity:end -->"
)

// writeDocs replaces what lies between the markers in path with table.
func writeDocs(path, table string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(data)
	i, j := strings.Index(s, beginMarker), strings.Index(s, endMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q ... %q markers", path, beginMarker, endMarker)
	}
	s = s[:i+len(beginMarker)] + "\n" + table + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
