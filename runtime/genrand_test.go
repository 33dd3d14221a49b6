package runtime

import "math/rand"

// Drawing the programs of the generated check (gen_test.go) at random:
// a few goroutines, some started by others, a few statements each, over
// one or two objects of each kind, sized so that dfs exhausts most of
// them within genDiffLimit schedules.

// gGen draws random programs.
type gGen struct {
	r *rand.Rand
	// budget is the statements left to place; gos the goroutines left to
	// start.
	budget, gos int
	caps        []int
}

// genProgram draws a program from r: a few goroutines (some started by
// others), a few statements each, over a few objects of each kind.
func genProgram(r *rand.Rand) *gProg {
	g := &gGen{r: r, budget: 4 + r.Intn(7), gos: 1 + r.Intn(3)}
	for i := 0; i < 1+r.Intn(2); i++ {
		g.caps = append(g.caps, r.Intn(3))
	}
	main := g.block(0, 2+r.Intn(3))
	p := &gProg{main: main, caps: g.caps}
	p.number()
	return p
}

// block draws n statements at nesting depth d.
func (g *gGen) block(d, n int) []gStmt {
	var b []gStmt
	for i := 0; i < n && g.budget > 0; i++ {
		b = append(b, g.stmt(d))
	}
	return b
}

// small draws an object index among the first two.
func (g *gGen) small() int { return g.r.Intn(2) }

func (g *gGen) stmt(d int) gStmt {
	g.budget--
	r := g.r
	nested := func() []gStmt {
		if d >= 2 {
			return nil
		}
		return g.block(d+1, 1+r.Intn(2))
	}
	ch := func() int { return r.Intn(len(g.caps)) }
	for {
		switch r.Intn(26) {
		case 0, 1:
			if g.gos > 0 && d < 3 {
				g.gos--
				return xgo(g.block(d+1, 1+r.Intn(3))...)
			}
		case 2:
			return xw(g.small(), 1+r.Intn(3))
		case 3:
			return xr(g.small())
		case 4:
			switch r.Intn(3) {
			case 0:
				return xld(g.small())
			case 1:
				return xst(g.small(), r.Intn(2))
			}
			return xinc(g.small())
		case 5:
			switch r.Intn(3) {
			case 0:
				return xaadd(0)
			case 1:
				return xaload(0)
			}
			return xacas(0, r.Intn(2))
		case 6, 7:
			return xsend(ch(), 1+r.Intn(3))
		case 8, 9:
			return xrecv(ch())
		case 10:
			return xclose(ch())
		case 11:
			var cases []gStmt
			for k := 0; k < 1+r.Intn(2); k++ {
				switch r.Intn(5) {
				case 0, 1:
					cases = append(cases, xsend(ch(), 1+r.Intn(3)))
				case 2, 3:
					cases = append(cases, xrecv(ch()))
				case 4:
					if r.Intn(2) == 0 {
						cases = append(cases, xctxdone(0))
					} else {
						cases = append(cases, xafter(r.Intn(3)))
					}
				}
			}
			return xselect(r.Intn(2) == 0, cases...)
		case 12, 13:
			switch r.Intn(6) {
			case 0:
				return xtrylock(0, nested()...)
			case 1:
				return xrlock(0, nested()...)
			case 2:
				return xwlock(0, nested()...)
			case 3:
				return xtryrlock(0, nested()...)
			case 4:
				return xtrywlock(0, nested()...)
			}
			return xlock(g.small(), nested()...)
		case 14, 15:
			switch r.Intn(4) {
			case 0:
				return xadd(0, 1+r.Intn(2))
			case 1, 2:
				return xdone(0)
			}
			return xwait(0)
		case 16:
			return xonce(0, nested()...)
		case 17:
			switch r.Intn(4) {
			case 0:
				return xcondwait(0)
			case 1:
				return xcondwait1(0)
			case 2:
				return xsignal(0)
			}
			return xbroadcast(0)
		case 18, 19:
			return xgosched()
		case 20:
			return xsleep(r.Intn(3))
		case 21:
			if d < 2 {
				return xafterfunc(0, r.Intn(3), g.block(d+1, 1+r.Intn(2))...)
			}
		case 22:
			return xstop(0)
		case 23:
			return xcancel(0)
		case 24:
			return xctxdone(0)
		case 25:
			// The shapes that matter most, whole: a goroutine counted
			// by a WaitGroup, the parent waiting for it.
			if g.gos > 0 && d < 2 {
				g.gos--
				body := append(g.block(d+1, 1+r.Intn(2)), xdone(0))
				if r.Intn(2) == 0 {
					body = append([]gStmt{xdone(0)}, body[:len(body)-1]...)
				}
				return xseq(xadd(0, 1), xgo(body...), xwait(0))
			}
		}
	}
}
