package earlyreturn

import "testing"

func TestHealthyIDsStopsAtBroken(t *testing.T) {
	cs := []Container{{ID: "a"}, {ID: "b", Broken: true}, {ID: "c"}}
	ids, err := HealthyIDs(cs)
	if err == nil {
		t.Fatal("HealthyIDs: want an error for container b")
	}
	if len(ids) != 1 || ids[0] != "a" {
		t.Errorf("ids = %v, want [a]", ids)
	}
}

func TestHealthyIDsAll(t *testing.T) {
	ids, err := HealthyIDs([]Container{{ID: "a"}, {ID: "b"}})
	if err != nil || len(ids) != 2 {
		t.Errorf("HealthyIDs = %v, %v; want [a b], nil", ids, err)
	}
}
