package forgottencancel

import (
	"context"
	"testing"
)

func TestOpenRejectsEmptyName(t *testing.T) {
	r := NewRegistry()
	defer r.Close()
	if err := r.Open(context.Background(), "db"); err != nil {
		t.Fatalf("Open(db): %v", err)
	}
	if err := r.Open(context.Background(), ""); err != ErrEmptyName {
		t.Errorf("Open(\"\") = %v, want ErrEmptyName", err)
	}
}
