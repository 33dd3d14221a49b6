package wire

// Coverage is what one test function's exploration reached (Config.Coverage),
// in a "coverage" event: the scheduling points its schedules arrived at,
// and the ordered pairs of conflicting points whose operations met, each
// with the number of schedules in which it happened. A run of several
// processes (per-process mode) sends one per process: they add up.
type Coverage struct {
	Points []CoveredPoint `json:"points"`
	Pairs  []CoveredPair  `json:"pairs,omitempty"`
}

// CoveredPoint is a scheduling point reached: Pos is the user's
// "file:line" (absolute file) that called the hook, Op the operation.
type CoveredPoint struct {
	Pos       string `json:"pos"`
	Op        string `json:"op"`
	Schedules int    `json:"schedules"`
}

// CoveredPair is an ordered pair of conflicting points (indexes into
// Points): in Schedules schedules, an operation at A was the access to an
// object just before a conflicting one at B by another goroutine.
type CoveredPair struct {
	A         int `json:"a"`
	B         int `json:"b"`
	Schedules int `json:"schedules"`
}
