package numgoroutine

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRunJobs(t *testing.T) {
	// The test also starts a server it forgets to close: its goroutines
	// outlive the test, so the process's goroutine count grows with every
	// run, which runtime.NumGoroutine shows unless gosct controls it.
	_ = httptest.NewServer(http.NotFoundHandler())
	var r Results
	RunJobs(&r, 2)
	if n := r.Count(); n != 2 {
		t.Errorf("%d jobs done, want 2", n)
	}
}
