package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A bug's user location (wire.Event.Pos) comes from the test binary as an
// absolute "file:line". The command shows it relative to its working
// directory, as go build and go vet print positions, so that editors and
// terminals open it; a file outside the directory keeps its absolute path.

// location is a bug's position as shown: file relative to base when
// inside it.
type location struct {
	file string
	line int
}

// String is "file:line", "" for no location.
func (l location) String() string {
	if l.file == "" {
		return ""
	}
	return l.file + ":" + strconv.Itoa(l.line)
}

// parsePos splits an absolute "file:line"; ok is false for anything else.
func parsePos(pos string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(pos[i+1:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return pos[:i], n, true
}

// relLocation is pos relative to base (a directory), when inside it.
func relLocation(base, pos string) location {
	file, line, ok := parsePos(pos)
	if !ok {
		return location{}
	}
	return location{file: relInside(base, file), line: line}
}

// relInside is file relative to base if it lies inside base, else file.
func relInside(base, file string) string {
	if base == "" || !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(base, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

// withLocation replaces the absolute position that starts a report's first
// line by the location shown.
func withLocation(report, pos string, loc location) string {
	if pos == "" || loc.file == "" || !strings.HasPrefix(report, pos+": ") {
		return report
	}
	return loc.String() + report[len(pos):]
}

// workDir is the working directory, "" if it cannot be known (positions
// then stay absolute).
func workDir() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}
