package chanflow

import "testing"

func TestPipeline(t *testing.T) { pipeline() }
