package rewrite

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"io"
	"os"
	"sort"
	"strings"
)

// Source prints the instrumented source of each file of the packages of b
// (for `gosct rewrite`), without the //line directives; with diff, a
// unified diff against the original instead.
func Source(b *Build, diff bool, w io.Writer) error {
	for _, p := range b.Packages {
		var names []string
		for n := range p.Files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, orig := range names {
			data, err := os.ReadFile(p.Files[orig])
			if err != nil {
				return err
			}
			shown := displaySource(data)
			if !diff {
				if _, err := fmt.Fprintf(w, "// %s (instrumented)\n%s\n", orig, shown); err != nil {
					return err
				}
				continue
			}
			old, err := os.ReadFile(orig)
			if err != nil {
				return err
			}
			if _, err := io.WriteString(w, unifiedDiff(orig, splitLines(old), splitLines(shown))); err != nil {
				return err
			}
		}
	}
	return nil
}

// displaySource is a rewritten file as users read it: without //line
// directives, gofmt'ed (the printer's layout of generated nodes is rough).
func displaySource(src []byte) []byte {
	s := stripLineDirectives(src)
	if f, err := format.Source(s); err == nil {
		return f
	}
	return s
}

// stripLineDirectives removes the //line comments printFile added.
func stripLineDirectives(src []byte) []byte {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "//line ") {
			continue
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// unifiedDiff is a unified diff (3 lines of context) of a and b, from an
// LCS computed with Myers' O(ND) algorithm.
func unifiedDiff(name string, a, b []string) string {
	ops := diffOps(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s (instrumented)\n", name, name)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i
		for start > 0 && i-start < ctx && ops[start-1].kind == ' ' {
			start--
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end += min(ctx, run-end)
				break
			}
			end = run
		}
		aStart, bStart, aN, bN := ops[start].ai, ops[start].bi, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart+1, aN, bStart+1, bN)
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

type diffOp struct {
	kind   byte // ' ', '-', '+'
	text   string
	ai, bi int // line indexes before this op
}

func diffOps(a, b []string) []diffOp {
	n, m := len(a), len(b)
	max := n + m
	v := make([]int, 2*max+2)
	var trace [][]int
	found := false
	for d := 0; d <= max && !found; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[max+k-1] < v[max+k+1] {
				x = v[max+k+1]
			} else {
				x = v[max+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[max+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0 && (x > 0 || y > 0); d-- {
		vv := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && vv[max+k-1] < vv[max+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vv[max+pk]
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, diffOp{' ', a[x], x, y})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, diffOp{'+', b[y], x, y})
		} else {
			x--
			rev = append(rev, diffOp{'-', a[x], x, y})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, diffOp{' ', a[x], x, y})
	}
	ops := make([]diffOp, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}
