package runtime

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// timerOps are the timer operations of a script: Go's own or the hooks.
type timerOps struct {
	newTimer func(time.Duration) *time.Timer
	sleep    func(time.Duration)
	stop     func(*time.Timer) bool
	reset    func(*time.Timer, time.Duration) bool
	poll     func(<-chan time.Time) bool // a receive that does not block
	length   func(<-chan time.Time) int
	capacity func(<-chan time.Time) int
}

// timerScript shows what Stop, Reset and len do to a value a timer sent
// that nobody received, and the channel's capacity.
func timerScript(o timerOps) string {
	tm := o.newTimer(time.Millisecond)
	o.sleep(5 * time.Millisecond)
	l, c := o.length(tm.C), o.capacity(tm.C)
	stopped := o.stop(tm)
	stale := o.poll(tm.C)
	tm2 := o.newTimer(time.Millisecond)
	o.sleep(5 * time.Millisecond)
	active := o.reset(tm2, time.Hour)
	stale2 := o.poll(tm2.C)
	o.stop(tm2)
	return fmt.Sprintf("len %d, cap %d; Stop %v, value after %v; Reset %v, value after %v", l, c, stopped, stale, active, stale2)
}

func TestVictimTimerChans(t *testing.T) {
	victimOnly(t)
	goOps := timerOps{
		newTimer: time.NewTimer, sleep: time.Sleep,
		stop:  (*time.Timer).Stop,
		reset: (*time.Timer).Reset,
		poll: func(c <-chan time.Time) bool {
			select {
			case <-c:
				return true
			default:
				return false
			}
		},
		length:   func(c <-chan time.Time) int { return len(c) },
		capacity: func(c <-chan time.Time) int { return cap(c) },
	}
	want := timerScript(goOps)
	Test(t, func(t *testing.T) {
		if async := strings.Contains(os.Getenv("GODEBUG"), "asynctimerchan=1"); asyncTimerChans != async {
			t.Errorf("asynchronous timer channels %v under GODEBUG=%s", asyncTimerChans, os.Getenv("GODEBUG"))
		}
		got := timerScript(timerOps{
			newTimer: NewTimer, sleep: Sleep, stop: TimerStop, reset: TimerReset,
			poll:     func(c <-chan time.Time) bool { return Select(true, OnRecv(c)) == 0 },
			length:   Len[time.Time],
			capacity: Cap[time.Time],
		})
		if got != want {
			t.Errorf("gosct: %s\nGo:    %s", got, want)
		}
	})
}

// Timer channels behave as the process's Go makes them: Go 1.23's, or
// Go 1.22's for a module whose go line is older (GODEBUG
// asynctimerchan=1), where a value sent stays through Stop and Reset
// (the stale tick of many old bugs).
func TestTimerChansFollowGo(t *testing.T) {
	for _, godebug := range []string{"asynctimerchan=0", "asynctimerchan=1"} {
		t.Run(godebug, func(t *testing.T) {
			t.Setenv("GODEBUG", godebug)
			if bs := bugs(victim(t, "TestVictimTimerChans", wire.Config{Strategy: "random", Schedules: 3})); len(bs) != 0 {
				t.Errorf("%s", bs[0].Report)
			}
		})
	}
}
