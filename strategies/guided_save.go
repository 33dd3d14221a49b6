package strategies

import (
	"encoding/json"
	"fmt"
	"io"
)

// savedGuided is the saved state of a Guided between executions: the
// random stream, the trials and their backtrack points.
type savedGuided struct {
	Format   int          `json:"format"`
	Strategy string       `json:"strategy"`
	Guide    string       `json:"guide"` // Guide.ID
	Rand     randState    `json:"rand"`
	Runs     int          `json:"runs"`
	Turn     int          `json:"turn"`
	Diverged int          `json:"diverged,omitempty"`
	Surveyed bool         `json:"surveyed"`
	Reach    []int        `json:"reach,omitempty"` // keys found reachable
	Trials   []savedTrial `json:"trials,omitempty"`
}

type savedTrial struct {
	Seq   int              `json:"seq"`
	Runs  int              `json:"runs"`
	Fresh int              `json:"fresh"`
	Best  int              `json:"best"`
	Back  []savedBacktrack `json:"back,omitempty"`
	// Keys are the keys of a refined trial (Refined of them inserted).
	Keys    []int `json:"keys,omitempty"`
	Refined int   `json:"refined,omitempty"`
}

type savedBacktrack struct {
	Seed   uint64      `json:"seed"`
	Parent []deviation `json:"parent,omitempty"`
	Pos    int         `json:"pos"`
	G      int         `json:"g"`
	Level  int         `json:"level"`
	H      int32       `json:"h"`
}

func (g *Guided) guideID() string {
	if g.x == nil {
		return ""
	}
	return g.x.g.ID
}

// Save writes the state; call it between executions (or right after
// NewExecution: the backtrack point taken is then already out of the set).
// A refinement the last execution calls for is made first.
func (g *Guided) Save(w io.Writer) error {
	g.settle()
	v := savedGuided{
		Format: stateFormat, Strategy: "guided", Guide: g.guideID(), Rand: g.rng.state(),
		Runs: g.runs, Turn: g.turn, Diverged: g.diverged, Surveyed: g.surveyed,
	}
	for k, ok := range g.reach {
		if ok {
			v.Reach = append(v.Reach, k)
		}
	}
	for _, t := range g.trials {
		st := savedTrial{Seq: t.seq, Runs: t.runs, Fresh: t.fresh, Best: t.best, Refined: t.refined}
		if t.refined > 0 {
			st.Keys = t.ks
		}
		for _, b := range t.back {
			st.Back = append(st.Back, savedBacktrack{Seed: b.seed, Parent: b.parent, Pos: b.pos, G: b.g, Level: b.level, H: b.h})
		}
		v.Trials = append(v.Trials, st)
	}
	return json.NewEncoder(w).Encode(v)
}

// Load restores what Save wrote, into a Guided created with the same
// options and the same guide.
func (g *Guided) Load(r io.Reader) error {
	var v savedGuided
	if err := decodeSaved(r, "guided", &v, &v.Format, &v.Strategy); err != nil {
		return err
	}
	if v.Guide != g.guideID() {
		return fmt.Errorf("saved guided search was made with another guide (the code or the targets changed): start a new search")
	}
	if v.Runs < 0 || v.Turn < 0 {
		return fmt.Errorf("saved guided state is inconsistent")
	}
	var reach []bool
	if len(v.Reach) > 0 {
		if g.x == nil {
			return fmt.Errorf("saved guided state has keys, and there is no guide")
		}
		reach = make([]bool, len(g.x.g.Keys))
		for _, k := range v.Reach {
			if k < 0 || k >= len(reach) {
				return fmt.Errorf("saved guided state names key %d, which the guide does not have", k)
			}
			reach[k] = true
		}
	}
	var trials []*trial
	for _, st := range v.Trials {
		if g.x == nil || st.Seq < 0 || st.Seq >= len(g.x.g.Seqs) {
			return fmt.Errorf("saved guided state names key sequence %d, which the guide does not have", st.Seq)
		}
		t := g.newTrial(st.Seq)
		t.runs, t.fresh, t.best, t.refined = st.Runs, st.Fresh, st.Best, st.Refined
		if len(st.Keys) > 0 {
			t.ks, t.keys = nil, nil
			for _, k := range st.Keys {
				if k < 0 || k >= len(g.x.g.Keys) {
					return fmt.Errorf("saved guided state names key %d, which the guide does not have", k)
				}
				t.ks = append(t.ks, k)
				t.keys = append(t.keys, g.x.key(k))
			}
		}
		for _, b := range st.Back {
			if b.Pos < 0 || b.G < 0 || b.Level < 0 || b.Level > len(t.keys) {
				return fmt.Errorf("saved guided state has a bad backtrack point: %+v", b)
			}
			t.back = append(t.back, backtrack{seed: b.Seed, parent: b.Parent, pos: b.Pos, g: b.G, level: b.Level, h: b.H})
		}
		trials = append(trials, t)
	}
	if err := g.rng.restore(v.Rand); err != nil {
		return err
	}
	g.runs, g.turn, g.diverged, g.surveyed, g.reach, g.trials = v.Runs, v.Turn, v.Diverged, v.Surveyed, reach, trials
	g.cur = guidedRun{}
	return nil
}
