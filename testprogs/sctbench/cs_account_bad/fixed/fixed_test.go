package fixed

import "testing"

func TestAccount(t *testing.T) {
	Run(t)
}
