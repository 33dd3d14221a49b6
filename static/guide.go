package static

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gosct/gosct/strategies"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// version changes whenever the analysis does: a cached guide of another
// version is not used.
const version = "guide-2"

// Guide computes the table guided search steers by: the lines of the
// analyzed functions with their costs to their function's end, the key
// locations of seqs and every line's distances to them.
func (p *Program) Guide(seqs []Seq) *strategies.Guide {
	g := newGraph(p)
	out := &strategies.Guide{Format: strategies.GuideFormat}
	fileIx := map[string]int{}
	for _, l := range g.lines {
		if _, ok := fileIx[l.File]; !ok {
			fileIx[l.File] = len(out.Files)
			out.Files = append(out.Files, l.File)
		}
	}
	xp, xa, call := g.lineExits()
	for i, l := range g.lines {
		out.Lines = append(out.Lines, strategies.GuideLine{File: fileIx[l.File], Line: l.Line, ExitPark: orMinus(xp[i]), ExitAfter: orMinus(xa[i]), Call: call[i]})
	}
	nodeOf := map[ssa.Instruction]int32{}
	for n, instr := range g.instrs {
		nodeOf[instr] = int32(n)
	}
	keyIx := map[*Key]int{}
	var keys []*Key // by index in out.Keys
	index := func(k *Key) int {
		ix, ok := keyIx[k]
		if !ok {
			ix = len(out.Keys)
			keyIx[k] = ix
			keys = append(keys, k)
			out.Keys = append(out.Keys, g.guideKey(k, nodeOf))
		}
		return ix
	}
	for _, s := range seqs {
		gs := strategies.GuideSeq{Kind: s.Kind, What: s.What}
		for _, k := range s.Keys {
			gs.Keys = append(gs.Keys, index(k))
		}
		out.Seqs = append(out.Seqs, gs)
	}
	// The keys a refinement may insert (Key.Before), with distances of
	// their own.
	for i := 0; i < len(out.Keys); i++ {
		var before []int
		for _, b := range keys[i].Before {
			before = append(before, index(b))
		}
		out.Keys[i].Before = before
	}
	return out
}

func (g *graph) guideKey(k *Key, nodeOf map[ssa.Instruction]int32) strategies.GuideKey {
	var nodes []int32
	for _, in := range k.Instrs {
		if n, ok := nodeOf[in]; ok {
			nodes = append(nodes, n)
		}
	}
	gk := strategies.GuideKey{Pos: k.String(), Op: k.Op}
	if len(nodes) == 0 {
		return gk
	}
	park, after, start := g.lineDistances(g.distances(nodes))
	for l := range park {
		if park[l] == inf && after[l] == inf && start[l] == inf {
			continue
		}
		gk.Dist = append(gk.Dist, int32(l), orMinus(park[l]), orMinus(after[l]), orMinus(start[l]))
	}
	return gk
}

func orMinus(d int32) int32 {
	if d == inf {
		return -1
	}
	return d
}

// Stats describe one computation of a guide, for measurements.
type Stats struct {
	Cached    bool
	Funcs     int
	Nodes     int
	Lines     int
	Keys      int
	Seqs      int
	Load, All time.Duration // SSA and call graph; the whole analysis
}

// CachedGuide returns the path of the guide file of the packages
// (rewrite.Loaded), computing it unless the cache directory holds one
// for the same files, options and analysis version already.
func CachedGuide(fset *token.FileSet, pkgs []*packages.Package, cacheDir string, o Options) (string, Stats, error) {
	start := time.Now()
	var st Stats
	key, err := cacheKey(pkgs, o)
	if err != nil {
		return "", st, err
	}
	dir := filepath.Join(cacheDir, "guides")
	path := filepath.Join(dir, key+".json")
	if _, err := os.Stat(path); err == nil {
		st.Cached = true
		return path, st, nil
	}
	p, err := Load(fset, pkgs)
	if err != nil {
		return "", st, err
	}
	st.Load = time.Since(start)
	seqs, err := p.Sequences(o)
	if err != nil {
		return "", st, err
	}
	g := p.Guide(seqs)
	g.ID = key
	st.Funcs, st.Lines, st.Keys, st.Seqs = len(p.Funcs), len(g.Lines), len(g.Keys), len(g.Seqs)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", st, err
	}
	if err := strategies.WriteGuide(path, g); err != nil {
		return "", st, err
	}
	st.All = time.Since(start)
	return path, st, nil
}

// cacheKey hashes what a guide depends on: the analysis version, the
// options, and every source file of the packages.
func cacheKey(pkgs []*packages.Package, o Options) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%q\x00%s\x00%d\x00%v\x00%v\x00", version, o.Targets, o.Dir, o.MaxSeqs, o.NoAuto, o.Races)
	// A rebuilt gosct may analyze differently: its executable is part of
	// the key (by size and time, as go's own cache does for tools).
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %s %d %d\x00", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range pkgs {
		fmt.Fprintf(h, "pkg %s\x00", p.ID)
		for _, f := range p.CompiledGoFiles {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "file %s\x00", name)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// Describe lists the sequences of a guide, for people.
func Describe(g *strategies.Guide) string {
	var b strings.Builder
	for _, s := range g.Seqs {
		var ks []string
		for _, k := range s.Keys {
			key := g.Keys[k]
			if key.Op != "" {
				ks = append(ks, key.Pos+" ("+key.Op+")")
			} else {
				ks = append(ks, key.Pos)
			}
		}
		fmt.Fprintf(&b, "%s: %s: %s\n", s.Kind, s.What, strings.Join(ks, " → "))
	}
	return b.String()
}
