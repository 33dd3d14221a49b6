package strategies

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// DFS-RB's configurations as the command line gives them (--dfsrb SPEC):
// a name, or the paper's tuple <thb, thm, thr, stg, rtb, rtc> written as
// it writes it, each optionally followed by budget=N and order=random.
//
//	rb1                                 the paper's Table 4, rank 1 (the default)
//	I:5-10-20-50-100,pl,d,luby,0.75,1.5 the same, as a tuple
//	L*0.25,pl,d,F,1-d/100,1.2           threshold a quarter of the first path
//	rb3,budget=1000,order=random        rank 3, 1000 executions per threshold
//	portfolio                           the paper's portfolio (DFSRBPortfolio)

// DFSRBPresets are the paper's ten best configurations by combined rank
// (Parížek and Lhoták, Table 4), rb1 the best; rb1 is DefaultDFSRB.
var DFSRBPresets = []string{
	"I,pl,d,luby,0.75,1.5",
	"I,pl,d,luby,0.90^r,1.2",
	"I,pl,ncs,fixed,1-r/5,1",
	"I,pl,d,random,1-r/5,1.1",
	"I,pl,ncs,luby,0.90^r,1.5",
	"I,pl,ncs,luby,0.90^r,1.2",
	"I,pl,ncs,luby,0.75,1.5",
	"I,pl,d,luby,0.95^r,1",
	"I,pl,ncs,random,1-r/2,1.5",
	"I,pl,d,fixed,0.75^r,1.5",
}

// DFSRBPortfolioSpec names the portfolio of configurations (DFSRBPortfolio).
const DFSRBPortfolioSpec = "portfolio"

// iterative is the paper's iterative threshold I: one search per value.
var iterative = []int{5, 10, 20, 50, 100}

// ParseDFSRB parses a configuration spec (see above). The portfolio's
// name is not a configuration: IsDFSRBPortfolio tells it apart first.
func ParseDFSRB(spec string) (DFSRBConfig, error) {
	var c DFSRBConfig
	items := strings.Split(strings.TrimSpace(spec), ",")
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	var pos []string
	var kvs []string
	for _, it := range items {
		if strings.Contains(it, "=") {
			kvs = append(kvs, it)
		} else if len(kvs) > 0 {
			return c, fmt.Errorf("%q comes after the options: write the configuration first, then budget=N and order=random", it)
		} else {
			pos = append(pos, it)
		}
	}
	switch {
	case len(pos) == 1 && presetIndex(pos[0]) >= 0:
		var err error
		if c, err = ParseDFSRB(DFSRBPresets[presetIndex(pos[0])]); err != nil {
			panic("strategies: bad preset: " + err.Error())
		}
	case len(pos) == 1 && pos[0] == DFSRBPortfolioSpec:
		return c, fmt.Errorf("portfolio is a set of configurations, not one; it takes no options")
	case len(pos) == 6:
		if err := c.parseTuple(pos); err != nil {
			return c, err
		}
	case len(pos) == 0 || len(pos) == 1 && pos[0] == "":
		return c, fmt.Errorf("empty: give a name (rb1 to rb%d, portfolio) or the paper's tuple thb,thm,thr,stg,rtb,rtc", len(DFSRBPresets))
	case len(pos) == 1:
		return c, fmt.Errorf("unknown configuration %q: give a name (rb1 to rb%d, portfolio) or the paper's tuple thb,thm,thr,stg,rtb,rtc", pos[0], len(DFSRBPresets))
	default:
		return c, fmt.Errorf("the paper's tuple has 6 elements (thb,thm,thr,stg,rtb,rtc), not %d", len(pos))
	}
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		switch strings.TrimSpace(k) {
		case "budget":
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return c, fmt.Errorf("budget=%s: want a number of executions per threshold, at least 1", v)
			}
			c.Budget = n
		case "order":
			switch strings.TrimSpace(v) {
			case "random":
				c.RandomOrder = true
			case "maple", "default":
				c.RandomOrder = false
			default:
				return c, fmt.Errorf("order=%s: want random or maple (the default)", v)
			}
		default:
			return c, fmt.Errorf("unknown option %q (known: budget=N, order=random)", k)
		}
	}
	return c, nil
}

// IsDFSRBPortfolio reports whether spec names the portfolio of
// configurations rather than one.
func IsDFSRBPortfolio(spec string) bool { return strings.TrimSpace(spec) == DFSRBPortfolioSpec }

// CheckDFSRB reports what is wrong with a spec, or nil: a configuration or
// the portfolio's name.
func CheckDFSRB(spec string) error {
	if IsDFSRBPortfolio(spec) {
		return nil
	}
	_, err := ParseDFSRB(spec)
	return err
}

func presetIndex(name string) int {
	if n, err := strconv.Atoi(strings.TrimPrefix(name, "rb")); err == nil && strings.HasPrefix(name, "rb") && "rb"+strconv.Itoa(n) == name && n >= 1 && n <= len(DFSRBPresets) {
		return n - 1
	}
	if name == "default" {
		return 0
	}
	return -1
}

var (
	reRatioDepth = regexp.MustCompile(`^1-d/([0-9.]+)$`)
	reRatioRun   = regexp.MustCompile(`^1-r/([0-9.]+)$`)
	reRatioPow   = regexp.MustCompile(`^([0-9.]+)\^r$`)
)

// parseTuple parses <thb, thm, thr, stg, rtb, rtc>.
func (c *DFSRBConfig) parseTuple(p []string) error {
	thb, thm, thr, stg, rtb, rtc := p[0], p[1], p[2], p[3], p[4], p[5]
	switch {
	case thb == "I":
		c.Thresholds = append([]int(nil), iterative...)
	case strings.HasPrefix(thb, "I:"):
		for _, s := range strings.Split(thb[2:], "-") {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				return fmt.Errorf("threshold %q: I:t1-t2-... wants thresholds of at least 1", thb)
			}
			c.Thresholds = append(c.Thresholds, n)
		}
	case strings.HasPrefix(thb, "L*") || strings.HasPrefix(thb, "L·"):
		f, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimPrefix(thb, "L*"), "L·"), 64)
		if err != nil || !(f > 0) || f > 1 {
			return fmt.Errorf("threshold %q: L*f wants a factor f in (0, 1]", thb)
		}
		c.LFactor = f
	default:
		n, err := strconv.Atoi(thb)
		if err != nil || n < 1 {
			return fmt.Errorf("threshold %q: want a depth of at least 1, I (5-10-20-50-100), I:t1-t2-... or L*f", thb)
		}
		c.Thresholds = []int{n}
	}
	switch thm {
	case "pl":
	case "cs":
		c.Switches = true
	default:
		return fmt.Errorf("threshold mode %q: want pl (path length) or cs (context switches)", thm)
	}
	switch thr {
	case "d":
	case "ncs":
		c.NCS = true
	default:
		return fmt.Errorf("threshold reduction %q: want d (none) or ncs (no context switch)", thr)
	}
	switch strings.ToLower(stg) {
	case "f", "fixed":
		c.Jump = JumpFixed
	case "r", "random":
		c.Jump = JumpRandom
	case "lb", "luby":
		c.Jump = JumpLuby
	default:
		return fmt.Errorf("jump strategy %q: want fixed (F), random (R) or luby (Lb)", stg)
	}
	num := func(s string) (float64, bool) {
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	if m := reRatioDepth.FindStringSubmatch(rtb); m != nil {
		f, ok := num(m[1])
		if !ok || f <= 0 {
			return fmt.Errorf("ratio %q: 1-d/C wants C > 0", rtb)
		}
		c.Ratio, c.C = RatioDepth, f
	} else if m := reRatioRun.FindStringSubmatch(rtb); m != nil {
		f, ok := num(m[1])
		if !ok || f <= 0 {
			return fmt.Errorf("ratio %q: 1-r/C wants C > 0", rtb)
		}
		c.Ratio, c.C = RatioRun, f
	} else if m := reRatioPow.FindStringSubmatch(rtb); m != nil {
		f, ok := num(m[1])
		if !ok || f <= 0 || f > 1 {
			return fmt.Errorf("ratio %q: C^r wants C in (0, 1]", rtb)
		}
		c.Ratio, c.C = RatioPowRun, f
	} else if f, ok := num(rtb); ok && f >= 0 && f <= 1 {
		c.Ratio, c.C = RatioConst, f
	} else {
		return fmt.Errorf("ratio %q: want a probability in [0, 1], 1-d/C, 1-r/C or C^r", rtb)
	}
	f, ok := num(rtc)
	if !ok || f <= 0 {
		return fmt.Errorf("switch coefficient %q: want a number > 0 (1 disables it)", rtc)
	}
	c.SwitchCoef = f
	return nil
}

// String writes the configuration in the paper's notation, then the
// options that differ from the defaults: "<I,pl,d,luby,0.75,1.5>" or
// "<L*0.25,pl,d,fixed,1-d/100,1.2> budget=500 order=random".
func (c DFSRBConfig) String() string {
	c = c.withDefaults()
	var b strings.Builder
	b.WriteString("<")
	switch {
	case c.LFactor > 0:
		b.WriteString("L*" + ftoa(c.LFactor))
	case len(c.Thresholds) == 1:
		b.WriteString(strconv.Itoa(c.Thresholds[0]))
	case fmt.Sprint(c.Thresholds) == fmt.Sprint(iterative):
		b.WriteString("I")
	default:
		var ts []string
		for _, t := range c.Thresholds {
			ts = append(ts, strconv.Itoa(t))
		}
		b.WriteString("I:" + strings.Join(ts, "-"))
	}
	b.WriteString(map[bool]string{false: ",pl", true: ",cs"}[c.Switches])
	b.WriteString(map[bool]string{false: ",d", true: ",ncs"}[c.NCS])
	b.WriteString("," + c.Jump + ",")
	switch c.Ratio {
	case RatioDepth:
		b.WriteString("1-d/" + ftoa(c.C))
	case RatioRun:
		b.WriteString("1-r/" + ftoa(c.C))
	case RatioPowRun:
		b.WriteString(ftoa(c.C) + "^r")
	default:
		b.WriteString(ftoa(c.C))
	}
	b.WriteString("," + ftoa(c.SwitchCoef) + ">")
	if c.Budget != DefaultDFSRB.Budget {
		fmt.Fprintf(&b, " budget=%d", c.Budget)
	}
	if c.RandomOrder {
		b.WriteString(" order=random")
	}
	return b.String()
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
