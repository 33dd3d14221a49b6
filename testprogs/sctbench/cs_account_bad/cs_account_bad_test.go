package cs_account_bad

import "testing"

func TestAccount(t *testing.T) {
	Run(t)
}
