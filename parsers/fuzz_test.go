package parsers

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// The helpers every parser fuzz target uses; the targets themselves live
// beside their grammar (FuzzHermes in hermes_test.go, …).

// fuzzInvariants feeds in whole and in random chunks (seeded by the fuzzer)
// and checks, through parserstest (CheckChunked): no panic, identical event
// streams, well-formed events (every ended call carrying one JSON object),
// bounded holding.
func fuzzInvariants(t *testing.T, cfg Config, in []byte, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var chunks [][]byte
	for rest := in; len(rest) > 0; {
		n := 1 + rng.IntN(9)
		if n > len(rest) {
			n = len(rest)
		}
		chunks = append(chunks, rest[:n])
		rest = rest[n:]
	}
	if CheckChunked == nil {
		t.Fatal("CheckChunked is unset: the external test package (invariants_test.go) sets it")
	}
	CheckChunked(t, cfg, in, chunks)
}

// seedFile is what the fuzz targets read of a fixture file (the format is
// parserstest's): its family and its cases' names and inputs.
type seedFile struct {
	Family string `json:"family"`
	Cases  []struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"cases"`

	path string
}

// seedFiles reads every fixture file under testdata/ (their full format is
// checked by the fixture suite, invariants_test.go).
func seedFiles(f *testing.F) []seedFile {
	paths, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no fixtures under testdata/ (%v)", err)
	}
	files := make([]seedFile, len(paths))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if err := json.Unmarshal(data, &files[i]); err != nil {
			f.Fatalf("%s: %v", path, err)
		}
		files[i].path = path
	}
	return files
}

// fixtureSeeds adds the inputs of the fixtures of the given families.
func fixtureSeeds(f *testing.F, families ...string) {
	for _, ff := range seedFiles(f) {
		for _, fam := range families {
			if ff.Family != fam {
				continue
			}
			for _, c := range ff.Cases {
				f.Add([]byte(c.Input), uint64(len(c.Input)), uint8(len(c.Name)))
			}
		}
	}
}
