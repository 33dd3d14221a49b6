package runtime

import "testing"

// The message of a failure is the last check that reported, in the
// output of testing and of testify (whose Error Trace lists positions,
// gosct's own among them under gosct, that are not reports).
func TestFailureMessage(t *testing.T) {
	for _, c := range []struct{ output, message, key, at string }{
		{"    a_test.go:12: got 2, want 1\n", "the test failed: a_test.go:12: got 2, want 1", "failure:a_test.go:12", ""},
		{"    a_test.go:9: first\n    a_test.go:12: got 2\n", "the test failed: a_test.go:12: got 2", "failure:a_test.go:12", ""},
		{"    cache_test.go:1232: \n" +
			"        \tError Trace:\t/m/cache_test.go:1232\n" +
			"        \t            \t\t\t\t/root/.cache/gosct/runtime-0a/runtime/explore.go:361\n" +
			"        \tError:      \tCondition never satisfied\n" +
			"        \tTest:       \tTest_Cache/schedule_70\n",
			"the test failed: cache_test.go:1232: Condition never satisfied", "failure:cache_test.go:1232", "/m/cache_test.go:1232"},
		{"no position here\n", "the test failed (t.Fail, or t.Error/t.Fatal with no message)", "failure", ""},
	} {
		b := failureBug("", c.output, true)
		if b.message != c.message || b.key != c.key || b.at != c.at {
			t.Errorf("output %q: message %q key %q at %q, want %q %q %q", c.output, b.message, b.key, b.at, c.message, c.key, c.at)
		}
	}
}
