package fixed

import "testing"

func TestQueue(t *testing.T) {
	Run(t)
}
