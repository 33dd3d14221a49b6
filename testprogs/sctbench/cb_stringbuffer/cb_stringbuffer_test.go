package cb_stringbuffer

import "testing"

func TestStringBuffer(t *testing.T) {
	Run(t)
}
