package main

import (
	"strings"
)

// goTestFlags are the flags after `--`, sorted the way go test sorts them:
// build flags go to `go test -c`, test flags to the test binary as -test.X.
type goTestFlags struct {
	build    []string
	run      []string // for the binary, in -test.name=value form
	tags     string
	verbose  bool
	timeout  string
	warnings []string
	runRe    string // the -run pattern
	skipRe   string // the -skip pattern, as the user wrote it
}

// goFlag describes one go test flag.
type goFlag struct {
	build bool // a build flag (go test -c) rather than a test binary flag
	value bool // takes a value
}

// goFlags lists the flags of `go help build` and `go help testflag`.
var goFlags = map[string]goFlag{
	// build flags with a value
	"tags": {true, true}, "ldflags": {true, true}, "gcflags": {true, true}, "asmflags": {true, true},
	"gccgoflags": {true, true}, "mod": {true, true}, "modfile": {true, true}, "pgo": {true, true},
	"p": {true, true}, "covermode": {true, true}, "coverpkg": {true, true}, "toolexec": {true, true},
	"compiler": {true, true}, "installsuffix": {true, true}, "pkgdir": {true, true}, "buildmode": {true, true},
	"vet": {true, true},
	// build flags without a value
	"a": {true, false}, "n": {true, false}, "x": {true, false}, "work": {true, false}, "race": {true, false},
	"msan": {true, false}, "asan": {true, false}, "cover": {true, false}, "trimpath": {true, false},
	"linkshared": {true, false}, "buildvcs": {true, false},
	// test binary flags with a value
	"run": {false, true}, "skip": {false, true}, "timeout": {false, true}, "count": {false, true},
	"cpu": {false, true}, "parallel": {false, true}, "bench": {false, true}, "benchtime": {false, true},
	"blockprofile": {false, true}, "blockprofilerate": {false, true}, "coverprofile": {false, true},
	"cpuprofile": {false, true}, "memprofile": {false, true}, "memprofilerate": {false, true},
	"mutexprofile": {false, true}, "mutexprofilefraction": {false, true}, "outputdir": {false, true},
	"trace": {false, true}, "shuffle": {false, true}, "fuzztime": {false, true}, "fuzzminimizetime": {false, true},
	"list": {false, true},
	// test binary flags without a value
	"v": {false, false}, "short": {false, false}, "failfast": {false, false}, "benchmem": {false, false},
	"fullpath": {false, false},
}

// unsupportedGoFlags are go test flags that contradict what gosct does with
// the build and the test binary.
var unsupportedGoFlags = map[string]string{
	"c":       "gosct builds the test binary itself",
	"o":       "gosct builds the test binary itself",
	"exec":    "gosct runs the test binary itself",
	"overlay": "gosct builds with its own overlay",
	"C":       "run gosct in the directory instead",
	"json":    "use gosct's --json",
	"fuzz":    "fuzzing is not controlled by gosct",
	"args":    "put test binary flags directly after --",
}

// parseGoTestFlags sorts the flags after `--`. Unknown flags are passed to
// the test binary unchanged, as go test does with flags it does not know
// (a test's own flags).
func parseGoTestFlags(args []string) (*goTestFlags, error) {
	g := &goTestFlags{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			g.run = append(g.run, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, value, hasValue = name[:eq], name[eq+1:], true
		}
		name = strings.TrimPrefix(name, "test.")
		if why, bad := unsupportedGoFlags[name]; bad {
			return nil, usagef("go test flag -%s is not supported by gosct: %s", name, why)
		}
		f, known := goFlags[name]
		if !known {
			g.run = append(g.run, a)
			continue
		}
		if f.value && !hasValue {
			if i+1 >= len(args) {
				return nil, usagef("go test flag -%s needs a value", name)
			}
			i++
			value, hasValue = args[i], true
		}
		if f.build {
			switch {
			case name == "tags":
				g.tags = value
			case hasValue:
				g.build = append(g.build, "-"+name+"="+value)
			default:
				g.build = append(g.build, "-"+name)
			}
			continue
		}
		switch name {
		case "run":
			g.runRe = value
			continue // gosct passes its own -test.run
		case "count":
			g.warnings = append(g.warnings, "-count is ignored: gosct runs each test once per schedule")
			continue
		case "v":
			g.verbose = !hasValue || value == "true"
		case "timeout":
			g.timeout = value
			continue // gosct passes its own -test.timeout
		case "skip":
			// The runtime runs each schedule as a subtest, so the
			// user's subtests are one level deeper than the pattern
			// says, as for -run.
			g.skipRe = value
			if value != "" {
				g.run = append(g.run, "-test.skip="+explorePattern(value))
			}
			continue
		}
		if hasValue {
			g.run = append(g.run, "-test."+name+"="+value)
		} else {
			g.run = append(g.run, "-test."+name)
		}
	}
	return g, nil
}
