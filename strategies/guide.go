package strategies

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sync"
)

// GuideFormat is the version of the guide file format.
const GuideFormat = 1

// A Guide is what guided search knows of the program before running it:
// the static analysis (package static) computes it once per build from
// the SSA form of the code under test, and the command hands it to the
// test binary as a file (wire.Config.Guide).
//
// Distances count scheduling points: the steps a goroutine must still
// take, at the least, before its step reaches a key location. They are
// per source line, because a goroutine's position at run time is its
// stack of file:line frames. Three distances per line and key:
//
//   - park: from a goroutine parked at an operation on the line (the
//     innermost frame of its stack);
//   - after: from just after a call on the line returns (an outer frame);
//   - start: from a goroutine created by a go statement on the line that
//     has not run yet.
//
// Each line also has the distance to the end of its function, by which a
// goroutine's distance is carried from a frame to its caller (see
// Guided). A distance is -1 when the key (or the function's end) cannot be
// reached; lines absent from a key's list cannot reach it.
type Guide struct {
	Format int `json:"format"`
	// ID identifies the analyzed code and options: a saved search is
	// resumed only with the guide it was made with.
	ID    string      `json:"id"`
	Files []string    `json:"files"`
	Lines []GuideLine `json:"lines"`
	Keys  []GuideKey  `json:"keys"`
	Seqs  []GuideSeq  `json:"seqs"`
}

// A GuideLine is one source line of an analyzed function.
type GuideLine struct {
	File int `json:"f"` // index in Guide.Files
	Line int `json:"l"`
	// ExitPark is the fewest scheduling points between an operation on
	// the line and its function's return; -1 if it cannot return.
	ExitPark int32 `json:"xp"`
	// ExitAfter is the same from just after a call on the line returns;
	// -1 if it cannot return. Call is false when the line holds no call
	// (a frame on it is then not understood, and skipped).
	ExitAfter int32 `json:"xa"`
	Call      bool  `json:"c,omitempty"`
}

// A GuideKey is a key location: a place some goroutine must reach, and
// the distances to it.
type GuideKey struct {
	// Pos is the location for reports, "file.go:41".
	Pos string `json:"pos"`
	// Op is the runtime's name of the operation at the key ("write",
	// "mutex lock"), when the key is a scheduling point: a goroutine
	// observes the key when it takes that operation there. Empty for a
	// key that is not a scheduling point (a t.Errorf call): a goroutine
	// observes it when its next step can reach it (distance 0).
	Op string `json:"op,omitempty"`
	// Dist lists, for every line that can reach the key, four numbers:
	// the line's index in Guide.Lines and its park, after and start
	// distances (-1: cannot reach).
	Dist []int32 `json:"dist"`
	// Before lists keys (indices in Guide.Keys) that may have to come
	// before this one: writes of the shared state the branches leading
	// to it read. When a descent toward this key is stuck, guided search
	// inserts one of them before it in the sequence (the thesis's
	// refinement).
	Before []int `json:"before,omitempty"`
}

// A GuideSeq is a sequence of key locations that leads to one possible
// bug, the last one being where the bug shows (thesis: the ordered key
// locations of the meta-heuristic).
type GuideSeq struct {
	// Kind is what the last key is: "failure" (t.Error, t.Fatal...),
	// "panic", "close" (a second close), "send" (send on a closed
	// channel), "deadlock" (lock order), "race", "target" (--target).
	Kind string `json:"kind"`
	// What describes the bug sought, for reports.
	What string `json:"what"`
	Keys []int  `json:"keys"` // indices in Guide.Keys
}

// WriteGuide writes g to path (through a temporary file and a rename, so
// a concurrent reader never sees it half written).
func WriteGuide(path string, g *Guide) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.tmp%d", path, os.Getpid())
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// ReadGuide reads and checks a guide file.
func ReadGuide(path string) (*Guide, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g Guide
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("guide %s: %v", path, err)
	}
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("guide %s: %v", path, err)
	}
	return &g, nil
}

func (g *Guide) check() error {
	if g.Format != GuideFormat {
		return fmt.Errorf("format %d, want %d", g.Format, GuideFormat)
	}
	for i, l := range g.Lines {
		if l.File < 0 || l.File >= len(g.Files) {
			return fmt.Errorf("line %d: bad file %d", i, l.File)
		}
	}
	for i, k := range g.Keys {
		if len(k.Dist)%4 != 0 {
			return fmt.Errorf("key %d: distances not in fours", i)
		}
		for j := 0; j < len(k.Dist); j += 4 {
			if l := k.Dist[j]; l < 0 || int(l) >= len(g.Lines) {
				return fmt.Errorf("key %d: bad line %d", i, l)
			}
		}
		for _, b := range k.Before {
			if b < 0 || b >= len(g.Keys) {
				return fmt.Errorf("key %d: bad key %d before it", i, b)
			}
		}
	}
	for i, s := range g.Seqs {
		if len(s.Keys) == 0 {
			return fmt.Errorf("sequence %d is empty", i)
		}
		for _, k := range s.Keys {
			if k < 0 || k >= len(g.Keys) {
				return fmt.Errorf("sequence %d: bad key %d", i, k)
			}
		}
	}
	return nil
}

// inf is an unreachable distance in the strategy's tables.
const inf = math.MaxInt32

// guideIndex is a Guide ready for lookups at scheduling points.
type guideIndex struct {
	g         *Guide
	lines     map[Frame]int32
	exitPark  []int32 // inf: cannot return
	exitAfter []int32
	call      []bool
	// reaches[l] lists the keys line l has a finite distance to, in some
	// way (parked, after a call, starting): what the survey looks up.
	reaches [][]int32

	mu   sync.Mutex
	keys []*keyIndex // built on first use
}

// keyIndex holds one key's distances, by line index: only the lines that
// can reach it (a guide of a whole module has many keys, each reached
// from few lines).
type keyIndex struct {
	op   string
	dist map[int32][3]int32 // park, after, start
}

func newGuideIndex(g *Guide) *guideIndex {
	x := &guideIndex{
		g:         g,
		lines:     make(map[Frame]int32, len(g.Lines)),
		exitPark:  make([]int32, len(g.Lines)),
		exitAfter: make([]int32, len(g.Lines)),
		call:      make([]bool, len(g.Lines)),
		reaches:   make([][]int32, len(g.Lines)),
		keys:      make([]*keyIndex, len(g.Keys)),
	}
	for i, l := range g.Lines {
		x.lines[Frame{File: g.Files[l.File], Line: l.Line}] = int32(i)
		x.exitPark[i] = orInf(l.ExitPark)
		x.exitAfter[i] = orInf(l.ExitAfter)
		x.call[i] = l.Call
	}
	for k, key := range g.Keys {
		for j := 0; j+3 < len(key.Dist); j += 4 {
			l := key.Dist[j]
			x.reaches[l] = append(x.reaches[l], int32(k))
		}
	}
	return x
}

func orInf(d int32) int32 {
	if d < 0 {
		return inf
	}
	return d
}

// key returns key k's distances, building them on first use: a test
// function uses the keys of the few bugs it can reach.
func (x *guideIndex) key(k int) *keyIndex {
	x.mu.Lock()
	defer x.mu.Unlock()
	if ki := x.keys[k]; ki != nil {
		return ki
	}
	d := x.g.Keys[k].Dist
	ki := &keyIndex{op: x.g.Keys[k].Op, dist: make(map[int32][3]int32, len(d)/4)}
	for j := 0; j+3 < len(d); j += 4 {
		ki.dist[d[j]] = [3]int32{orInf(d[j+1]), orInf(d[j+2]), orInf(d[j+3])}
	}
	x.keys[k] = ki
	return ki
}

// line returns the index of a frame's line, or -1.
func (x *guideIndex) line(f Frame) int32 {
	if l, ok := x.lines[f]; ok {
		return l
	}
	return -1
}

// distance is the fewest scheduling points a goroutine with pending
// operation op and stack frames must pass before its step reaches key k,
// inf if it cannot (as far as the guide knows). It is e-FCA's
// stack-aware distance (the thesis's §4) in scheduling points: the
// distance from the innermost frame within its function and the calls
// it makes, or the distance to that function's return plus the distance
// from the return point in the caller, and so on down the stack,
// whichever is least. Frames the guide does not know (the runtime's,
// uninstrumented code) are skipped.
func (x *guideIndex) distance(ki *keyIndex, op string, frames []Frame) int32 {
	if len(frames) == 0 {
		return inf
	}
	if op == "start" {
		if d, ok := ki.dist[x.line(frames[0])]; ok {
			return d[2]
		}
		return inf
	}
	best := int32(inf)
	var acc int64
	for i, f := range frames {
		l := x.line(f)
		if l < 0 || i > 0 && !x.call[l] {
			continue
		}
		down := int32(inf)
		d, ok := ki.dist[l]
		exit := x.exitPark[l]
		if i == 0 {
			if ok {
				down = d[0]
			}
		} else {
			exit = x.exitAfter[l]
			if ok {
				down = d[1]
			}
		}
		if down != inf && acc+int64(down) < int64(best) {
			best = int32(acc + int64(down))
		}
		if exit == inf {
			break
		}
		acc += int64(exit)
		if acc >= int64(best) {
			break
		}
	}
	return best
}

// reachable marks in reach the keys a goroutine with pending operation
// op and stack frames can reach, as far as its frames' lines say (the
// survey's cheap look, by the lines' lists of keys).
func (x *guideIndex) reachable(op string, frames []Frame, reach []bool) {
	if len(frames) == 0 {
		return
	}
	for i, f := range frames {
		l := x.line(f)
		if l < 0 {
			continue
		}
		for _, k := range x.reaches[l] {
			if !reach[k] && x.distance(x.key(int(k)), op, frames) != inf {
				reach[k] = true
			}
		}
		if op == "start" || i == 0 && x.exitPark[l] == inf || i > 0 && x.call[l] && x.exitAfter[l] == inf {
			return
		}
	}
}

var (
	guidesMu sync.Mutex
	guides   = map[string]*guideIndex{}
)

// loadGuide reads the guide at path once per process: every test
// function's strategy shares it.
func loadGuide(path string) (*guideIndex, error) {
	guidesMu.Lock()
	defer guidesMu.Unlock()
	if x := guides[path]; x != nil {
		return x, nil
	}
	g, err := ReadGuide(path)
	if err != nil {
		return nil, err
	}
	x := newGuideIndex(g)
	guides[path] = x
	return x, nil
}
