package rewrite

import gosct "github.com/gosct/gosct"

var embeddedSource = gosct.Source
