package runtime

// syncState is the execution's model of sync objects (stub).
type syncState struct{}

func (s *syncState) init() {}
