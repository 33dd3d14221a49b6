//go:build !race

package runtime

func raceDisable() {}
func raceEnable()  {}

const raceEnabled = false
