package runtime

// clock is the execution's virtual clock (stub: replaced by the timers
// implementation).
type clock struct{}

func (c *clock) init()                     {}
func (c *clock) advance(e *execution) bool { return false }
func (c *clock) pending() bool             { return false }
