package parsers_test

import (
	"testing"

	"github.com/agentwire/agentwire/parsers/parserstest"
)

// TestFixturesLoadWithParserstest: every fixture file of this package is in
// the format parserstest documents for users, and names only registered
// parsers. (parserstest's own tests run every check over all of them.)
func TestFixturesLoadWithParserstest(t *testing.T) {
	files, err := parserstest.Glob("testdata/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if len(f.Cases) == 0 {
			t.Errorf("%s: no cases", f.Path)
		}
		for i := range f.Cases {
			if _, err := f.Configs(&f.Cases[i]); err != nil {
				t.Errorf("%s: %v", f.Path, err)
			}
		}
	}
}
