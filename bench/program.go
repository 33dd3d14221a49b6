package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Program is one package of the corpus, as its program.json describes it.
type Program struct {
	// ID is the SCTBench benchmark id (0..48); nil for Go-specific programs.
	ID   *int   `json:"id"`
	Name string `json:"name"`
	// Dir is the package directory relative to the corpus root.
	Dir string `json:"dir"`
	// Kind is the bug's kind; "none" for a correct (fixed) program.
	Kind    string `json:"kind"`
	Threads int    `json:"threads"`
	// Fixed is the directory of the correct twin, if any.
	Fixed string `json:"fixed"`
	// FixedOf (SCTBench twins) and Buggy (Go-specific twins) name the
	// buggy program a correct one fixes.
	FixedOf string `json:"fixed_of"`
	Buggy   string `json:"buggy"`
	Depth   string `json:"depth"`
	Paper   *Paper `json:"paper"`

	// Module is the directory, relative to the corpus root, of the Go
	// module holding the program ("" for the root module): set by Load.
	Module string `json:"-"`
}

// Paper holds the SCTBench paper's figures for a benchmark. A nil count
// means the technique did not find the bug within Limit schedules.
type Paper struct {
	Limit int  `json:"limit"`
	K     int  `json:"k"`
	DFS   *int `json:"dfs"`
	IPB   *int `json:"ipb"`
	IDB   *int `json:"idb"`
	Rand  *int `json:"rand"`
	PCT1  *int `json:"pct1"`
	PCT2  *int `json:"pct2"`
	PCT3  *int `json:"pct3"`

	RandBuggy int  `json:"rand_buggy"`
	PCT1Buggy int  `json:"pct1_buggy"`
	PCT2Buggy int  `json:"pct2_buggy"`
	PCT3Buggy int  `json:"pct3_buggy"`
	Maple     bool `json:"maple"`
}

// IsFixed reports whether p is a correct program, on which any bug
// reported is a false alarm.
func (p *Program) IsFixed() bool { return p.Kind == "none" }

// Suite is "sctbench" for the SCTBench ports and "go" for the Go-specific
// programs.
func (p *Program) Suite() string {
	if strings.HasPrefix(p.Dir, "sctbench/") {
		return "sctbench"
	}
	return "go"
}

// ParseProgram parses one program.json.
func ParseProgram(b []byte) (*Program, error) {
	var p Program
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	if p.Dir == "" || p.Kind == "" {
		return nil, fmt.Errorf("program.json lacks dir or kind")
	}
	p.Dir = filepath.ToSlash(filepath.Clean(p.Dir))
	return &p, nil
}

// Load reads every program.json under root (the testprogs directory) and
// returns the programs sorted: SCTBench by id, then the others by
// directory. A program.json's dir must be the directory it is in, so that
// a moved program cannot silently be benchmarked under another name.
func Load(root string) ([]*Program, error) {
	var out []*Program
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != "program.json" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		p, err := ParseProgram(b)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		if filepath.ToSlash(rel) != p.Dir {
			return fmt.Errorf("%s: dir is %q, want %q", path, p.Dir, filepath.ToSlash(rel))
		}
		p.Module = moduleOf(root, p.Dir)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	linkTwins(out)
	SortPrograms(out)
	return out, nil
}

// linkTwins sets the Fixed of a buggy program from its twin's fixed_of or
// buggy field when the buggy program's own program.json does not name
// its twin, so that the twin is reported (and selected) with it.
func linkTwins(ps []*Program) {
	byDir := map[string]*Program{}
	for _, p := range ps {
		byDir[p.Dir] = p
	}
	for _, f := range ps {
		if !f.IsFixed() {
			continue
		}
		of := f.FixedOf
		if of == "" {
			of = f.Buggy
		}
		if b := byDir[filepath.ToSlash(filepath.Clean(of))]; of != "" && b != nil && b.Fixed == "" {
			b.Fixed = f.Dir
		}
	}
}

// moduleOf finds the innermost go.mod between root and dir.
func moduleOf(root, dir string) string {
	for d := dir; d != "." && d != "/" && d != ""; d = filepath.ToSlash(filepath.Dir(d)) {
		if _, err := os.Stat(filepath.Join(root, d, "go.mod")); err == nil {
			return d
		}
	}
	return ""
}

// SortPrograms orders SCTBench programs by id (a fixed twin after its
// buggy program), then the Go-specific ones by directory.
func SortPrograms(ps []*Program) {
	ids := map[string]int{}
	for _, p := range ps {
		if p.ID != nil {
			ids[p.Dir] = *p.ID
		}
	}
	id := func(p *Program) int {
		if p.ID != nil {
			return *p.ID
		}
		if i, ok := ids[p.FixedOf]; ok {
			return i
		}
		return 1 << 30
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Suite() != b.Suite() {
			return a.Suite() == "sctbench"
		}
		if ia, ib := id(a), id(b); ia != ib {
			return ia < ib
		}
		return a.Dir < b.Dir
	})
}

// Pair is a buggy program and its correct twin (nil when it has none).
type Pair struct {
	Buggy, Fixed *Program
}

// Pairs matches each buggy program with its fixed twin. Correct programs
// whose buggy program is not in ps get a Pair of their own (Buggy nil), so
// that no false alarm can go unreported.
func Pairs(ps []*Program) []Pair {
	byDir := map[string]*Program{}
	for _, p := range ps {
		byDir[p.Dir] = p
	}
	used := map[string]bool{}
	var out []Pair
	for _, p := range ps {
		if p.IsFixed() {
			continue
		}
		pr := Pair{Buggy: p}
		if f := byDir[filepath.ToSlash(filepath.Clean(p.Fixed))]; p.Fixed != "" && f != nil && f.IsFixed() {
			pr.Fixed = f
			used[f.Dir] = true
		}
		out = append(out, pr)
	}
	for _, p := range ps {
		if p.IsFixed() && !used[p.Dir] {
			out = append(out, Pair{Fixed: p})
		}
	}
	return out
}
