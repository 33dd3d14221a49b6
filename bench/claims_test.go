package bench

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gosct/gosct/strategies"
)

// The figures a reader sees in README.md and in the reading of the results
// (bench/reading.md) are checked here against the tables of
// docs/results.md, which gosct-bench generates: a figure typed by hand
// cannot drift from the latest run.

// results are the figures of a generated docs/results.md.
type results struct {
	limit int
	// By column (random, pct1, ..., portfolio).
	sct, sctOf, goFound, goOf, alarms, fixed, errors map[string]int
	// paper is the paper's total by column, where it has one.
	paper map[string]int
	// cells: benchmark name (as in the SCTBench table) -> column ->
	// cell, paper columns included ("paper IPB").
	cells   map[string]map[string]string
	columns []string
	reading string // the reading section, as appended
}

func parseResults(t *testing.T, path string) *results {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &results{sct: map[string]int{}, sctOf: map[string]int{}, goFound: map[string]int{}, goOf: map[string]int{},
		alarms: map[string]int{}, fixed: map[string]int{}, errors: map[string]int{}, paper: map[string]int{},
		cells: map[string]map[string]string{}}
	text := string(b)
	if m := regexp.MustCompile(`Limit: (\d+) schedules per run`).FindStringSubmatch(text); m != nil {
		r.limit = atoi(t, m[1])
	}
	if i := strings.Index(text, "## Reading the figures"); i >= 0 {
		r.reading = text[i:]
	}
	section := ""
	var head []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			section, head = strings.TrimPrefix(line, "## "), nil
			continue
		}
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if head == nil {
			head = cells
			continue
		}
		switch {
		case section == "Totals":
			col := cells[0]
			r.columns = append(r.columns, col)
			r.sct[col], r.sctOf[col] = fraction(t, cells[1])
			if cells[2] != "" {
				r.paper[col], _ = fraction(t, strings.Fields(cells[2])[0]+" / 49")
			}
			r.goFound[col], r.goOf[col] = fraction(t, cells[3])
			r.alarms[col], r.fixed[col] = fraction(t, cells[4])
			r.errors[col] = atoi(t, cells[5])
		case strings.HasPrefix(section, "SCTBench ports"):
			row := map[string]string{}
			for i, h := range head {
				if i < len(cells) {
					row[h] = cells[i]
				}
			}
			r.cells[row["benchmark"]] = row
		}
	}
	if len(r.columns) == 0 || len(r.cells) == 0 || r.limit == 0 {
		t.Fatalf("%s: no totals, SCTBench table or limit found: has gosct-bench's format changed?", path)
	}
	return r
}

// fraction parses "42 / 49".
func fraction(t *testing.T, s string) (int, int) {
	t.Helper()
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		t.Fatalf("%q is not a fraction", s)
	}
	return atoi(t, strings.TrimSpace(a)), atoi(t, strings.TrimSpace(b))
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// labels maps the names the prose gives the techniques to the columns.
var labels = map[string]string{
	"random": "random", "PCT d=1": "pct1", "PCT d=2": "pct2", "PCT d=3": "pct3", "DFS": "dfs",
	"IPB": "pb", "IDB": "db", "DFS-RB": "dfsrb", "portfolio": "portfolio", "guided": "guided",
}

// paperTableColumn is the paper's column of the SCTBench table for a column.
var paperTableColumn = map[string]string{"random": "paper rand", "pct3": "paper PCT3", "pb": "paper IPB", "db": "paper IDB", "dfs": "paper DFS"}

const label = `(DFS-RB|DFS|IPB|IDB|PCT d=[1-9]|random|portfolio|guided)`

var (
	// "IPB 39/49 (paper 38)": found of 49 or 37, and the paper's total.
	totalClaim = regexp.MustCompile(label + ` (\d+)/(\d+)(?: \(paper (\d+)\))?`)
	anyTotal   = regexp.MustCompile(`(\S+) (\d+)/(\d+)`)
	// "radbench.bug2 under PCT d=3 at schedule 27 (paper 1,813)"; a claim
	// without a benchmark name ("and under IPB at ...") is about the
	// previous one.
	firstClaim = regexp.MustCompile(`(\S+) under ` + label + ` at schedule ([\d,]+)(?: \(paper ([^)]*)\))?`)
	missClaim  = regexp.MustCompile(label + ` misses (\S+)`)
	everyMiss  = regexp.MustCompile(`(\S+) is missed by every strategy`)
	twinsClaim = regexp.MustCompile(`(\d+) correct twins \((\d+) runs\)`)
)

// firstBug reads the schedule of a "✓ N" cell, -1 for a miss.
func firstBug(cell string) int {
	if m := regexp.MustCompile(`^✓ (\d+)`).FindStringSubmatch(cell); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return -1
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestClaims(t *testing.T) {
	r := parseResults(t, filepath.Join("..", "docs", "results.md"))
	t.Run("README", func(t *testing.T) { checkREADME(t, r) })
	t.Run("reading", func(t *testing.T) {
		b, err := os.ReadFile("reading.md")
		if err != nil {
			t.Fatal(err)
		}
		checkReading(t, r, oneLine(string(b)))
		if strings.TrimSpace(r.reading) != strings.TrimSpace(string(b)) {
			t.Errorf("docs/results.md does not end with bench/reading.md: regenerate it (gosct-bench appends the reading)")
		}
	})
}

func checkREADME(t *testing.T, r *results) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := oneLine(string(b))
	re := regexp.MustCompile(`\((\d+) SCTBench ports and (\d+) Go-specific bug kernels[^)]*\) the default strategy \((\w+)\) finds (\d+) of the (\d+) SCTBench bugs and (\d+) of the (\d+) Go-specific ones within ([\d,]+) schedules, with no false alarm on any of the (\d+) fixed versions`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("README.md does not state the corpus figures in the form this test checks:\n%s", re)
	}
	col := strategies.DefaultStrategy
	if m[3] != col {
		t.Errorf("README.md names %s as the default strategy; it is %s", m[3], col)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"SCTBench ports", atoi(t, m[1]), r.sctOf[col]},
		{"Go-specific programs", atoi(t, m[2]), r.goOf[col]},
		{"SCTBench bugs found", atoi(t, m[4]), r.sct[col]},
		{"SCTBench bugs", atoi(t, m[5]), r.sctOf[col]},
		{"Go-specific bugs found", atoi(t, m[6]), r.goFound[col]},
		{"Go-specific bugs", atoi(t, m[7]), r.goOf[col]},
		{"schedules", atoi(t, m[8]), r.limit},
		{"fixed versions", atoi(t, m[9]), r.fixed[col]},
	} {
		if c.got != c.want {
			t.Errorf("README.md: %s %d, docs/results.md %d", c.what, c.got, c.want)
		}
	}
	for _, col := range r.columns {
		if r.alarms[col] != 0 {
			t.Errorf("README.md claims no false alarm; docs/results.md has %d for %s", r.alarms[col], col)
		}
	}
}

func checkReading(t *testing.T, r *results, text string) {
	checked := map[int]bool{} // positions of the N/M figures checked
	for _, m := range totalClaim.FindAllStringSubmatchIndex(text, -1) {
		checked[m[4]] = true
		name, n, of := text[m[2]:m[3]], atoi(t, text[m[4]:m[5]]), atoi(t, text[m[6]:m[7]])
		col := labels[name]
		switch of {
		case r.sctOf[col]:
			if n != r.sct[col] {
				t.Errorf("reading: %s %d/%d; docs/results.md: %d/%d", name, n, of, r.sct[col], of)
			}
		case r.goOf[col]:
			if n != r.goFound[col] {
				t.Errorf("reading: %s %d/%d Go-specific; docs/results.md: %d/%d", name, n, of, r.goFound[col], of)
			}
		default:
			t.Errorf("reading: %s %d/%d: neither the SCTBench nor the Go-specific total", name, n, of)
		}
		if m[8] >= 0 {
			if p, ok := r.paper[col]; !ok || p != atoi(t, text[m[8]:m[9]]) {
				t.Errorf("reading: %s (paper %s); docs/results.md: paper %d", name, text[m[8]:m[9]], p)
			}
		}
	}
	for _, m := range anyTotal.FindAllStringSubmatchIndex(text, -1) {
		if !checked[m[4]] {
			t.Errorf("reading: %q: a figure with no technique named before it, which this test cannot check", text[m[0]:m[1]])
		}
	}
	program := ""
	for _, m := range firstClaim.FindAllStringSubmatch(text, -1) {
		if _, ok := r.cells[m[1]]; ok {
			program = m[1]
		}
		row := r.cells[program]
		if row == nil {
			t.Errorf("reading: %q names no benchmark of the SCTBench table", m[0])
			continue
		}
		col := labels[m[2]]
		if got := firstBug(row[col]); got != atoi(t, m[3]) {
			t.Errorf("reading: %s under %s at schedule %s; docs/results.md: %q", program, m[2], m[3], row[col])
		}
		if m[4] != "" {
			want := firstBug(row[paperTableColumn[col]])
			if got := strings.ReplaceAll(m[4], ",", ""); got != strconv.Itoa(want) && !(got == "✗" && want < 0) {
				t.Errorf("reading: %s under %s (paper %s); docs/results.md: %q", program, m[2], m[4], row[paperTableColumn[col]])
			}
		}
	}
	for _, m := range missClaim.FindAllStringSubmatch(text, -1) {
		if row := r.cells[m[2]]; row == nil || firstBug(row[labels[m[1]]]) >= 0 {
			t.Errorf("reading: %s misses %s; docs/results.md: %q", m[1], m[2], row[labels[m[1]]])
		}
	}
	for _, m := range everyMiss.FindAllStringSubmatch(text, -1) {
		row := r.cells[m[1]]
		for _, col := range r.columns {
			if row == nil || firstBug(row[col]) >= 0 {
				t.Errorf("reading: %s is missed by every strategy; docs/results.md has %s: %q", m[1], col, row[col])
			}
		}
	}
	for _, m := range twinsClaim.FindAllStringSubmatch(text, -1) {
		fixed := r.fixed[r.columns[0]]
		if atoi(t, m[1]) != fixed || atoi(t, m[2]) != fixed*len(r.columns) {
			t.Errorf("reading: %s; docs/results.md: %d fixed programs, %d runs", m[0], fixed, fixed*len(r.columns))
		}
	}
	if strings.Contains(text, "no run failed to complete") {
		for _, col := range r.columns {
			if r.errors[col] != 0 {
				t.Errorf("reading: no run failed to complete; docs/results.md: %d errors for %s", r.errors[col], col)
			}
		}
	}
}
