package static

import (
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// userTarget adds the sequences of a --target file:line.
func (f *finder) userTarget(spec, dir string) error {
	i := strings.LastIndexByte(spec, ':')
	if i <= 0 {
		return targetErrorf("--target %q: want file:line", spec)
	}
	file, lineStr := spec[:i], spec[i+1:]
	line, err := strconv.Atoi(lineStr)
	if err != nil || line < 1 {
		return targetErrorf("--target %q: want file:line", spec)
	}
	var files []string
	abs := file
	if !filepath.IsAbs(abs) && dir != "" {
		abs = filepath.Join(dir, file)
	}
	for name := range f.p.Files {
		if name == abs || strings.HasSuffix(name, string(filepath.Separator)+filepath.Clean(file)) {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	switch {
	case len(files) == 0:
		return targetErrorf("--target %s: no such file in the packages tested", spec)
	case len(files) > 1:
		return targetErrorf("--target %s: %s names several files (%s): give more of its path", spec, file, strings.Join(files, ", "))
	}
	want := Line{files[0], line}
	var instrs []ssa.Instruction
	f.each(func(instr ssa.Instruction, l Line) {
		if l == want {
			instrs = append(instrs, instr)
		}
	})
	if len(instrs) == 0 {
		return targetErrorf("--target %s: no code on that line", spec)
	}
	k := &Key{Pos: token.Position{Filename: want.File, Line: want.Line}, Instrs: instrs}
	f.keys["target "+want.String()] = k
	f.withWrites("target", "--target "+spec, instrs, k)
	return nil
}
