package fixed

import "testing"

func TestBluetoothDriver(t *testing.T) {
	Run(t)
}
