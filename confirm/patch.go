package confirm

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// edit is one insertion into a user's file.
type edit struct {
	file    string
	off     int
	ownLine bool
	line    int // the line number the next line must keep (own lines)
	code    string
	comment string
	indent  string
	seq     int
}

// patchSet is the copy of the user's files go test builds (an overlay)
// and the same change as a patch the user can apply.
type patchSet struct {
	edits []edit
	// helpers are the helper files, by path: their content.
	helpers map[string]string
}

// apply returns path's content with its edits; directives adds the
// //line directives that keep the user's line numbers (the overlay's
// copy), else the text is the user's patch.
func (ps *patchSet) apply(path string, src []byte, directives bool) []byte {
	var es []edit
	for _, e := range ps.edits {
		if e.file == path {
			es = append(es, e)
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].off != es[j].off {
			return es[i].off < es[j].off
		}
		return es[i].seq < es[j].seq
	})
	var b strings.Builder
	last := 0
	for _, e := range es {
		b.Write(src[last:e.off])
		last = e.off
		if e.ownLine {
			b.WriteString(e.indent + e.code)
			if e.comment != "" {
				b.WriteString(" // " + e.comment)
			}
			b.WriteString("\n")
			if directives {
				fmt.Fprintf(&b, "//line %s:%d\n", path, e.line)
			}
			continue
		}
		if e.code[0] == ';' {
			b.WriteString(e.code)
		} else {
			b.WriteString(e.code + "; ")
		}
	}
	b.Write(src[last:])
	return []byte(b.String())
}

// files lists the user's files the set changes.
func (ps *patchSet) files() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range ps.edits {
		if !seen[e.file] {
			seen[e.file] = true
			out = append(out, e.file)
		}
	}
	sort.Strings(out)
	return out
}

// overlay writes the changed copies and the helpers into dir and returns
// the overlay file go test -overlay reads.
func (ps *patchSet) overlay(dir string) (string, error) {
	repl := map[string]string{}
	n := 0
	write := func(target string, content []byte) error {
		n++
		p := filepath.Join(dir, strconv.Itoa(n)+"-"+filepath.Base(target))
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return err
		}
		repl[target] = p
		return nil
	}
	for _, f := range ps.files() {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		if err := write(f, ps.apply(f, src, true)); err != nil {
			return "", err
		}
	}
	for p, c := range ps.helpers {
		if err := write(p, []byte(c)); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	b.WriteString(`{"Replace":{`)
	keys := make([]string, 0, len(repl))
	for k := range repl {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%s:%s", strconv.Quote(k), strconv.Quote(repl[k]))
	}
	b.WriteString("}}")
	ov := filepath.Join(dir, "overlay.json")
	return ov, os.WriteFile(ov, []byte(b.String()), 0o644)
}

// patch is the change as a unified diff, paths relative to root.
func (ps *patchSet) patch(root string) (string, error) {
	var b strings.Builder
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return filepath.ToSlash(p)
	}
	for _, f := range ps.files() {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		b.WriteString(unified(rel(f), ps.lineOps(f, src), false))
	}
	hs := make([]string, 0, len(ps.helpers))
	for p := range ps.helpers {
		hs = append(hs, p)
	}
	sort.Strings(hs)
	for _, p := range hs {
		var ops []diffOp
		for _, l := range splitLines(ps.helpers[p]) {
			ops = append(ops, diffOp{'+', l})
		}
		b.WriteString(unified(rel(p), ops, true))
	}
	return b.String(), nil
}

// diffOp is one line of a unified diff: ' ' kept, '-' removed, '+' added.
type diffOp struct {
	kind byte
	text string
}

// lineOps diffs path's src against its edited version: the edits only
// insert lines and change lines in place.
func (ps *patchSet) lineOps(path string, src []byte) []diffOp {
	var es []edit
	for _, e := range ps.edits {
		if e.file == path {
			es = append(es, e)
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].off != es[j].off {
			return es[i].off < es[j].off
		}
		return es[i].seq < es[j].seq
	})
	var ops []diffOp
	k := 0
	for ls := 0; ls < len(src); {
		le := lineEnd(src, ls)
		var inline []edit
		for ; k < len(es) && es[k].off <= le; k++ {
			if es[k].ownLine && es[k].off == ls {
				text := es[k].indent + es[k].code
				if es[k].comment != "" {
					text += " // " + es[k].comment
				}
				ops = append(ops, diffOp{'+', text})
				continue
			}
			inline = append(inline, es[k])
		}
		line := string(src[ls:le])
		if len(inline) == 0 {
			ops = append(ops, diffOp{' ', line})
		} else {
			sub := &patchSet{}
			for _, e := range inline {
				e.off -= ls
				e.file = ""
				sub.edits = append(sub.edits, e)
			}
			ops = append(ops, diffOp{'-', line}, diffOp{'+', string(sub.apply("", []byte(line), false))})
		}
		ls = le + 1
	}
	for ; k < len(es); k++ {
		ops = append(ops, diffOp{'+', es[k].indent + es[k].code})
	}
	return ops
}

// unified renders ops as a unified diff of file name; a nil src: a new file.
func unified(name string, ops []diffOp, created bool) string {
	var out strings.Builder
	if created {
		fmt.Fprintf(&out, "--- /dev/null\n+++ b/%s\n", name)
	} else {
		fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	}
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: ctx lines before the change, to ctx lines after the
		// last change closer than 2*ctx lines to the one before.
		start := i
		for c := 0; start > 0 && c < ctx && ops[start-1].kind == ' '; c++ {
			start--
		}
		end := i
		for {
			for end < len(ops) && ops[end].kind != ' ' {
				end++
			}
			gap := 0
			for end+gap < len(ops) && ops[end+gap].kind == ' ' {
				gap++
			}
			if end+gap < len(ops) && gap <= 2*ctx {
				end += gap
				continue
			}
			end += min(gap, ctx)
			break
		}
		aStart, bStart, aN, bN := 0, 0, 0, 0
		for _, o := range ops[:start] {
			if o.kind != '+' {
				aStart++
			}
			if o.kind != '-' {
				bStart++
			}
		}
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		for _, o := range ops[start:end] {
			out.WriteString(string(o.kind) + o.text + "\n")
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return strconv.Itoa(start) + ",0"
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
