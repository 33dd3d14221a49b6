package firsterror

import (
	"errors"
	"testing"
)

var errBad = errors.New("bad url")

func fetch(u string) error {
	if u == "bad" {
		return errBad
	}
	return nil
}

func TestFetchAllReportsError(t *testing.T) {
	if err := FetchAll([]string{"a", "bad", "c"}, fetch); err != errBad {
		t.Errorf("FetchAll = %v, want %v", err, errBad)
	}
}

func TestFetchAllOK(t *testing.T) {
	if err := FetchAll([]string{"a", "b"}, fetch); err != nil {
		t.Errorf("FetchAll = %v, want nil", err)
	}
}
