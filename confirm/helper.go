package confirm

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// How is a way of holding a goroutine back under go test.
type How string

// The ways, in the order they are tried.
const (
	// Sleep: a time.Sleep at each place, for whichever goroutine passes
	// it: the plainest patch.
	Sleep How = "sleep"
	// Targeted: a sleep for the goroutine the schedule held only, on the
	// pass it was held at, recognised by its callers; others go on.
	Targeted How = "targeted"
	// Handshake: the held goroutine waits until the goroutine that ran
	// in its place in the schedule reaches where the schedule gave the
	// turn back (a channel closed there), at most a bound.
	Handshake How = "handshake"
	// Yield: the held goroutine calls runtime.Gosched in a loop.
	Yield How = "yield"
)

// action is what the helper does at a site for one goroutine: hold it,
// or release the goroutine held by gate.
type action struct {
	hold bool
	gate int
	n    int
	// nth: the action is for the nth goroutine (0-based) to reach the
	// site from callers, on its pass n.
	nth     int
	callers []Frame
	timer   bool
	// alone: the hold's release is in another package, out of the
	// helper's reach: it sleeps in every way.
	alone bool
	// what says why, for the helper's comment.
	what string
}

// helperParams are the knobs of a helper file.
type helperParams struct {
	how     How
	sleep   time.Duration // a hold's sleep
	timer   time.Duration // a hold that must outlast a timer
	maxWait time.Duration // a handshake's bound
	yields  int
	// leaks: positions ("/abs/file.go:12") that goroutines left behind
	// by the test stand at when they leaked; grace: how long after the
	// test returns they may still leave; wait: how long the check looks
	// for them (at least grace): a goroutine may get there late.
	leaks []string
	grace time.Duration
	wait  time.Duration
}

// helper renders the helper file of package pkg with the actions of its
// sites (by site number).
func helper(pkg string, sites map[int][]action, p helperParams, leakCheck bool) string {
	var b strings.Builder
	b.WriteString("// Code inserted by gosct confirm: delays that make go test take the\n// schedule of a bug gosct found. Apply to see the bug; do not commit.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	var imports []string
	if len(sites) > 0 {
		imports = append(imports, "runtime", "strconv", "strings", "sync", "time")
	}
	if leakCheck {
		imports = appendNewAll(imports, "runtime", "strings", "testing", "time")
	}
	sort.Strings(imports)
	b.WriteString("import (\n")
	for _, im := range imports {
		fmt.Fprintf(&b, "\t%q\n", im)
	}
	b.WriteString(")\n")
	if len(sites) > 0 {
		b.WriteString("\n")
		writeSites(&b, sites, p)
	}
	if leakCheck {
		qs := make([]string, len(p.leaks))
		for i, l := range p.leaks {
			qs[i] = strconv.Quote(l)
		}
		fmt.Fprintf(&b, "\n// gosctConfirmLeaked are where the goroutines the test leaves behind stand.\nvar gosctConfirmLeaked = []string{%s}\n\nconst (\n\tgosctConfirmGrace = %s\n\tgosctConfirmWait  = %s\n)\n", strings.Join(qs, ", "), goDuration(p.grace), goDuration(max(p.wait, p.grace)))
		b.WriteString(leakCode)
	}
	return b.String()
}

// writeSites writes the hold machinery and the sites' actions.
func writeSites(b *strings.Builder, sites map[int][]action, p helperParams) {
	fmt.Fprintf(b, "// gosctConfirmHow is how a goroutine is held: %q.\nconst gosctConfirmHow = %q\n\n", p.how, p.how)
	b.WriteString(actionType)
	b.WriteString("var gosctConfirmSites = map[int][]gosctConfirmAction{\n")
	ks := make([]int, 0, len(sites))
	for k := range sites {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	for _, k := range ks {
		fmt.Fprintf(b, "\t%d: {\n", k)
		for _, a := range sites[k] {
			cs := make([]string, len(a.callers))
			for i, c := range a.callers {
				cs[i] = strconv.Quote(c.Pos())
			}
			d := p.sleep
			if a.timer {
				d = p.timer
			}
			fmt.Fprintf(b, "\t\t{hold: %v, gate: %d, n: %d, nth: %d, callers: []string{%s}, d: %s, alone: %v}, // %s\n",
				a.hold, a.gate, a.n, a.nth, strings.Join(cs, ", "), goDuration(d), a.alone, a.what)
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "const (\n\tgosctConfirmMaxWait = %s\n\tgosctConfirmYields  = %d\n)\n\n", goDuration(p.maxWait), p.yields)
	b.WriteString(helperCode)
}

func appendNewAll(s []string, vs ...string) []string {
	for _, v := range vs {
		s = appendNew(s, v)
	}
	return s
}

func goDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + " * time.Second"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + " * time.Millisecond"
	}
	return strconv.FormatInt(int64(d), 10)
}

const actionType = `// gosctConfirmAction holds the goroutine that calls from callers (file:line,
// innermost first; the last may be missing: the wrapper of a go
// statement) on its pass n, the nth goroutine to get there (0-based), or
// releases the goroutine held by gate.
type gosctConfirmAction struct {
	hold    bool
	gate    int
	n       int
	nth     int
	callers []string
	d       time.Duration
	alone   bool
}

`

// helperCode (and leakCode) must build in a module of any go version
// that has generics (go.mod's go line sets the language version): no
// min, max, clear, range over an int (TestHelperBuildsForGo118).
const helperCode = `var gosctConfirmState struct {
	sync.Mutex
	passes map[[3]int]int
	order  map[[2]int][]int
	done   map[[2]int]bool
	gates  map[int]chan struct{}
}

// gosctConfirm is the inserted call of site: it holds or releases the
// calling goroutine as the site's actions say.
func gosctConfirm(site int) {
	var callers []string
	gid := 0
	for i, a := range gosctConfirmSites[site] {
		if callers == nil {
			callers = gosctConfirmCallers()
			gid = gosctConfirmGoid()
		}
		if !gosctConfirmFrom(callers, a.callers) {
			continue
		}
		s := &gosctConfirmState
		s.Lock()
		if s.passes == nil {
			s.passes, s.order, s.done, s.gates = map[[3]int]int{}, map[[2]int][]int{}, map[[2]int]bool{}, map[int]chan struct{}{}
		}
		n := s.passes[[3]int{site, i, gid}]
		s.passes[[3]int{site, i, gid}]++
		if n == 0 {
			s.order[[2]int{site, i}] = append(s.order[[2]int{site, i}], gid)
		}
		nth := 0
		for nth < len(s.order[[2]int{site, i}]) && s.order[[2]int{site, i}][nth] != gid {
			nth++
		}
		act := n == a.n && nth == a.nth && !s.done[[2]int{site, i}]
		if act {
			s.done[[2]int{site, i}] = true
		}
		gate := s.gates[a.gate]
		if gate == nil {
			gate = make(chan struct{})
			s.gates[a.gate] = gate
		}
		s.Unlock()
		if !act {
			continue
		}
		if !a.hold {
			close(gate)
			continue
		}
		switch {
		case gosctConfirmHow == "handshake" && !a.alone:
			select {
			case <-gate:
				time.Sleep(time.Millisecond) // let the releaser take its step
			case <-time.After(gosctConfirmMaxWait):
			}
		case gosctConfirmHow == "yield":
			for j := 0; j < gosctConfirmYields; j++ {
				runtime.Gosched()
			}
		default:
			time.Sleep(a.d)
		}
	}
}

// gosctConfirmCallers are the calling goroutine's callers above the site,
// "file.go:12", innermost first.
func gosctConfirmCallers() []string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(4, pcs)
	fs := runtime.CallersFrames(pcs[:n])
	out := []string{}
	for {
		f, more := fs.Next()
		file := f.File
		if i := strings.LastIndexByte(file, '/'); i >= 0 {
			file = file[i+1:]
		}
		out = append(out, file+":"+strconv.Itoa(f.Line))
		if !more {
			return out
		}
	}
}

// gosctConfirmFrom reports whether want are among callers, in order; the
// outermost of want may be missing.
func gosctConfirmFrom(callers, want []string) bool {
	j := 0
	for _, c := range callers {
		if j < len(want) && c == want[j] {
			j++
		}
	}
	return j == len(want) || j == len(want)-1
}

// gosctConfirmGoid is the calling goroutine's id.
func gosctConfirmGoid() int {
	var buf [64]byte
	s := strings.TrimPrefix(string(buf[:runtime.Stack(buf[:], false)]), "goroutine ")
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		i = 0
	}
	n, _ := strconv.Atoi(s[:i])
	return n
}
`

const leakCode = `
// gosctConfirmLeaks fails t when, once the test has returned and
// gosctConfirmGrace has passed, goroutines stand where gosct saw them
// leak: what goleak does, for the goroutines gosct named. It looks for
// them until gosctConfirmWait: a goroutine not there yet when the test
// returns (still running, or waiting for a timer) may get there later.
func gosctConfirmLeaks(t *testing.T) {
	t.Cleanup(func() {
		start := time.Now()
		for {
			left := gosctConfirmStanding()
			waited := time.Since(start)
			if len(left) > 0 && waited >= gosctConfirmGrace {
				t.Errorf("gosct confirm: leak: goroutines still blocked after the test returned, at:\n%s\n", strings.Join(left, "\n"))
				return
			}
			if waited >= gosctConfirmWait {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// gosctConfirmStanding lists the positions of gosctConfirmLeaked where a
// goroutine, not running, stands now; nil unless all are.
func gosctConfirmStanding() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, want := range gosctConfirmLeaked {
		for _, g := range strings.Split(string(buf), "\n\n") {
			head, _, _ := strings.Cut(g, "\n")
			if strings.Contains(head, "[running]") || strings.Contains(head, "[runnable]") {
				continue
			}
			if strings.Contains(g, want+" ") || strings.Contains(g, want+"\n") {
				found = append(found, want)
				break
			}
		}
	}
	if len(found) < len(gosctConfirmLeaked) {
		return nil
	}
	return found
}
`

// helperPath is the helper file's path for package pkg in dir: a test
// file unless a file that is not needs it.
func helperPath(dir, pkg string, forNonTest bool) string {
	switch {
	case forNonTest:
		return filepath.Join(dir, "gosct_confirm.go")
	case strings.HasSuffix(pkg, "_test"):
		return filepath.Join(dir, "gosct_confirm_x_test.go")
	}
	return filepath.Join(dir, "gosct_confirm_test.go")
}
