package parsers

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// fuzzInvariants feeds in whole and in random chunks (seeded by the fuzzer)
// and checks: no panic, identical event streams, well-formed events, bounded
// holding, and every ended call carrying one JSON object.
func fuzzInvariants(t *testing.T, cfg Config, in []byte, seed uint64) {
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whole, _, _ := streamOf(t, p, [][]byte{in}, "whole")
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
	got, _, _ := streamOf(t, p, chunks, "random")
	if len(got) != len(whole) {
		t.Fatalf("random chunks: %d events, whole: %d\nwhole: %v\nrandom: %v", len(got), len(whole), whole, got)
	}
	for i := range got {
		if got[i] != whole[i] {
			t.Fatalf("random chunks: event %d = %+v, whole: %+v", i, got[i], whole[i])
		}
	}
}

// fixtureSeeds adds the inputs of the fixtures of the given families.
func fixtureSeeds(f *testing.F, families ...string) {
	for _, ff := range loadFixtures(f) {
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

// FuzzHermes runs the hermes grammar, alone and behind a reasoning parser,
// in streaming and whole-call mode.
func FuzzHermes(f *testing.F) {
	fixtureSeeds(f, "hermes", "compose", "captures")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "hermes", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "qwen3"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// FuzzReasoning runs every paired-marker reasoning grammar.
func FuzzReasoning(f *testing.F) {
	fixtureSeeds(f, "think", "think_forced", "kimi", "mistral", "kimi_k25", "deepseek_v4", "minimax_m2", "gemma4", "granite", "minimax_append_think")
	names := []string{"qwen3", "deepseek_r1", "kimi", "kimi_k25", "mistral", "deepseek_v4", "minimax_m2", "gemma4", "granite", "minimax_append_think"}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ReasoningParser: names[int(sel)%len(names)], InReasoning: sel&0x80 != 0}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// FuzzJSONScan checks the incremental JSON scanner against encoding/json's
// validator, fed in random pieces.
func FuzzJSONScan(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a": [1, -2.5e+3, true, false, null, "x\u00e9\n"]}`, `"s"`, `12`, `-0.0e0`,
		`{"a":}`, `[1,]`, `01`, `{"a" 1}`, `tru`, `"\x"`, `[[[[]]]]`, `{"k": {"n": "}"}}`} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		if bytes.ContainsFunc(in, func(r rune) bool { return r < 0x20 && r != ' ' }) {
			t.Skip("raw control characters are accepted inside strings on purpose")
		}
		b := bytes.Trim(in, " ")
		var s jsonScan
		s.reset()
		rng := rand.New(rand.NewPCG(seed, 2))
		n, r := 0, scanMore
		for rest := b; len(rest) > 0 && r == scanMore; {
			k := 1 + rng.IntN(7)
			if k > len(rest) {
				k = len(rest)
			}
			m, rr := s.scan(rest[:k])
			n += m
			r = rr
			rest = rest[m:]
			if rr == scanMore && m != k {
				t.Fatalf("scanMore consumed %d of %d", m, k)
			}
		}
		ours := (r == scanDone && n == len(b)) || (r == scanMore && n == len(b) && s.numberAtEOF())
		if std := json.Valid(b); ours != std {
			t.Fatalf("%q: scanner says valid=%v (result %d at %d), encoding/json %v", b, ours, r, n, std)
		}
	})
}
