package hedgeleak

import (
	"testing"
	"time"
)

func TestHedgedGet(t *testing.T) {
	c := &Client{
		HedgeDelay: time.Minute,
		Primary:    func(k string) string { return "primary:" + k },
		Backup:     func(k string) string { return "backup:" + k },
	}
	if v := c.Get("k"); v != "primary:k" && v != "backup:k" {
		t.Errorf("Get = %q", v)
	}
}
