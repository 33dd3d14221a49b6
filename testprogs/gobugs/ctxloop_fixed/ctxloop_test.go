package ctxloop

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"
)

func TestImport(t *testing.T) {
	recs := make([]string, 30000)
	for i := range recs {
		recs[i] = strconv.Itoa(i)
	}
	bad := errors.New("bad record")
	store := func(ctx context.Context, r string) error {
		time.Sleep(time.Microsecond) // the store's latency
		if r == recs[len(recs)-1] {
			return bad
		}
		return ctx.Err()
	}
	n, err := Import(context.Background(), recs, store, time.Second)
	if err != bad || n != len(recs)-1 {
		t.Errorf("Import = %d, %v; want %d, %v", n, err, len(recs)-1, bad)
	}
}
