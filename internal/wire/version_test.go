package wire

import (
	"testing"

	"golang.org/x/mod/semver"
)

func TestVersionIsSemver(t *testing.T) {
	if !semver.IsValid(Version) {
		t.Errorf("Version %q is not a semantic version (vMAJOR.MINOR.PATCH[-pre])", Version)
	}
}
