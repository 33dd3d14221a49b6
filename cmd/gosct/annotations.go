package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gosct/gosct/internal/wire"
)

// CI annotations (--annotations): one per distinct bug, at its user
// location, with the command that replays it, so that a bug found in CI
// shows on the pull request's diff instead of in a log someone has to dig
// through.
//
//   - github: a workflow command per bug, "::error file=F,line=L,title=T::M",
//     on stdout (stderr when stdout holds JSON; the runner reads both), or
//     in a file (github=FILE);
//   - gitlab: a code quality report (a JSON array of issues), written when
//     the run ends to gl-code-quality-report.json or gitlab=FILE, for the
//     job's artifacts:reports:codequality.
//
// Paths are relative to the repository's checkout: $GITHUB_WORKSPACE,
// $CI_PROJECT_DIR, else the working directory.

// annotationSpec is one --annotations value.
type annotationSpec struct {
	format string // "github" or "gitlab"
	file   string // "" for the format's default
}

func parseAnnotationSpec(s string) (annotationSpec, error) {
	format, file, _ := strings.Cut(s, "=")
	switch format {
	case "github", "gitlab":
	default:
		return annotationSpec{}, usagef("--annotations: unknown format %q (known: github, gitlab; FORMAT=FILE writes to FILE)", format)
	}
	if strings.Contains(s, "=") && file == "" {
		return annotationSpec{}, usagef("--annotations %s: no file after =", s)
	}
	return annotationSpec{format: format, file: file}, nil
}

// annotator writes the annotations of the bugs the reporter reports.
type annotator struct {
	github    []io.Writer
	closers   []io.Closer
	githubDir string
	gitlab    []string // files
	gitlabDir string
	issues    []gitlabIssue
	count     int
}

// newAnnotator opens the destinations of specs. out is where github's
// commands go by default.
func newAnnotator(specs []annotationSpec, out io.Writer, cwd string) (*annotator, error) {
	a := &annotator{githubDir: envDir("GITHUB_WORKSPACE", cwd), gitlabDir: envDir("CI_PROJECT_DIR", cwd)}
	for _, s := range specs {
		switch s.format {
		case "github":
			if s.file == "" {
				a.github = append(a.github, out)
				continue
			}
			f, err := os.Create(s.file)
			if err != nil {
				a.close()
				return nil, fmt.Errorf("--annotations: %v", err)
			}
			a.github = append(a.github, f)
			a.closers = append(a.closers, f)
		case "gitlab":
			file := s.file
			if file == "" {
				file = "gl-code-quality-report.json"
			}
			a.gitlab = append(a.gitlab, file)
		}
	}
	return a, nil
}

// envDir is the directory named by the environment variable, else def.
func envDir(name, def string) string {
	if d := os.Getenv(name); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
	}
	return def
}

// bug annotates one distinct bug. report is its report, whose first line
// says where and what.
func (a *annotator) bug(pkg string, e wire.Event, report string) {
	a.count++
	what := firstLine(report)
	if _, rest, ok := strings.Cut(what, ": "); ok && strings.HasPrefix(rest, e.Kind+": ") {
		what = strings.TrimPrefix(rest, e.Kind+": ") // the location and the kind are the annotation's own
	}
	if what == "" {
		what = e.Message
	}
	title := fmt.Sprintf("gosct: %s in %s", e.Kind, e.Test)
	if len(a.github) > 0 {
		loc := relLocation(a.githubDir, e.Pos)
		msg := fmt.Sprintf("%s\n\n%s (package %s), schedule %d", what, e.Test, pkg, e.Schedule)
		if e.Trace != "" {
			msg += "\nreplay: " + replayCommand(relInside(a.githubDir, e.Trace))
		}
		line := "::error "
		if loc.file != "" {
			line += fmt.Sprintf("file=%s,line=%d,", ghProperty(loc.file), loc.line)
		}
		line += "title=" + ghProperty(title) + "::" + ghData(msg) + "\n"
		for _, w := range a.github {
			io.WriteString(w, line)
		}
	}
	if len(a.gitlab) > 0 {
		loc := relLocation(a.gitlabDir, e.Pos)
		desc := fmt.Sprintf("%s: %s", title, what)
		if e.Trace != "" {
			desc += "; replay: " + replayCommand(relInside(a.gitlabDir, e.Trace))
		}
		key := e.Key
		if key == "" {
			key = e.Kind + "\x00" + e.Test + "\x00" + what
		}
		sum := sha256.Sum256([]byte(pkg + "\x00" + key))
		iss := gitlabIssue{Description: desc, CheckName: "gosct-" + e.Kind, Fingerprint: hex.EncodeToString(sum[:16]), Severity: "major"}
		iss.Location.Path = loc.file
		iss.Location.Lines.Begin = max(loc.line, 1)
		a.issues = append(a.issues, iss)
	}
}

// gitlabIssue is one issue of GitLab's code quality report.
type gitlabIssue struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
		} `json:"lines"`
	} `json:"location"`
}

// close writes the GitLab reports (an empty array when no bug was found:
// the job's artifact exists either way) and closes the files.
func (a *annotator) close() error {
	var first error
	for _, c := range a.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	a.closers = nil
	issues := a.issues
	if issues == nil {
		issues = []gitlabIssue{}
	}
	for _, file := range a.gitlab {
		b, err := json.MarshalIndent(issues, "", "  ")
		if err == nil {
			err = writeFileAtomic(file, append(b, '\n'))
		}
		if err != nil && first == nil {
			first = fmt.Errorf("--annotations gitlab: %v", err)
		}
	}
	return first
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
