package tickerrange

import (
	"testing"
	"time"
)

func TestTickerrange(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	go func() {
		for range tk.C {
		}
	}()
}
