package fixed

import "testing"

// want is output.txt as the port writes it when no bug fires: computed with
// all three FIX_BUG switches on, and the same in every schedule then.
const want = "3\n6.000000\n0.231290 \n\n6\n4.000000\n0.785309 \n\n"

// The fixed version must pass in every schedule.
func TestStreamcluster(t *testing.T) {
	if got := Run(); got != want {
		t.Errorf("output.txt = %q, want %q", got, want)
	}
}
