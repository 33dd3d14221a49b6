package cs_bluetooth_driver_bad

import "testing"

func TestBluetoothDriver(t *testing.T) {
	Run(t)
}
