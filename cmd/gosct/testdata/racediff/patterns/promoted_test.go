package patterns

import "testing"

// A value-receiver method copies its receiver: promoted from an embedded
// field, the copy is of that field; an array ranged over by value is
// copied at the loop's start.

type leaf struct{ n int }

func (l leaf) get() int { return l.n }

type middle struct{ leaf }

type topLevel struct {
	middle
	other int
}

type viaPointer struct{ *middle }

func TestPromotedValueReceiverTwoLevels(t *testing.T) {
	p := &topLevel{}
	race(func() {
		p.n = 1
	}, func() {
		_ = p.get()
	})
}

func TestPromotedThroughEmbeddedPointer(t *testing.T) {
	v := viaPointer{&middle{}}
	race(func() {
		v.n = 1
	}, func() {
		_ = v.get()
	})
}

type grid struct{ cells [4]int }

func TestRangeArrayByValue(t *testing.T) {
	g := &grid{}
	race(func() {
		g.cells[2] = 1
	}, func() {
		for _, c := range g.cells {
			_ = c
		}
	})
}
