package longsleep

import (
	"testing"
	"time"
)

func TestLongsleep(t *testing.T) {
	go func() { time.Sleep(time.Hour) }()
}
