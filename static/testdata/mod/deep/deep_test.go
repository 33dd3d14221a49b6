package deep

import "testing"

func TestDeep(t *testing.T) { run(&s{}) }
