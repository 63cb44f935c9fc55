package tokenizers

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeTok is a tiny Tokenizer for stop-decoder tests: id i decodes to
// vocab[i], concatenated.
type fakeTok struct {
	Tokenizer
	vocab []string
}

func (f fakeTok) Decode(ids []uint32, skip bool) (string, error) {
	var b strings.Builder
	for _, id := range ids {
		if int(id) < len(f.vocab) {
			b.WriteString(f.vocab[id])
		}
	}
	return b.String(), nil
}

func TestStopDecoder(t *testing.T) {
	vocab := []string{"Hello", " wor", "ld", "\nObs", "ervation:", " tail", "<eos>", "\n", "Ob", "x", "END", "!"}
	tok := fakeTok{vocab: vocab}
	tests := []struct {
		name   string
		cfg    StopConfig
		ids    []uint32
		want   []string // text per Step, then Finish (when not stopped)
		reason StopReason
	}{
		{
			name:   "split stop string is never partially emitted",
			cfg:    StopConfig{StopStrings: []string{"\nObservation:"}},
			ids:    []uint32{0, 3, 4, 5},
			want:   []string{"Hello", "", ""},
			reason: StopReason{Kind: StopHiddenString, String: "\nObservation:"},
		},
		{
			name:   "visible stop string is emitted through the match",
			cfg:    StopConfig{VisibleStopStrings: []string{"\nObservation:"}},
			ids:    []uint32{0, 3, 4, 5},
			want:   []string{"Hello", "", "\nObservation:"},
			reason: StopReason{Kind: StopVisibleString, String: "\nObservation:"},
		},
		{
			name: "held prefix is released when it stops matching",
			cfg:  StopConfig{StopStrings: []string{"\nObservation:"}},
			ids:  []uint32{0, 7, 8, 9, 1},
			want: []string{"Hello", "", "", "\nObx", " wor", ""},
		},
		{
			name: "held prefix is flushed at finish",
			cfg:  StopConfig{StopStrings: []string{"\nObservation:"}},
			ids:  []uint32{0, 3},
			want: []string{"Hello", "", "\nObs"},
		},
		{
			name:   "hidden stop id releases held text and hides its own",
			cfg:    StopConfig{HiddenStopIDs: []uint32{6}, StopStrings: []string{"\nObservation:"}},
			ids:    []uint32{0, 3, 6, 1},
			want:   []string{"Hello", "", "\nObs"},
			reason: StopReason{Kind: StopHiddenID, ID: 6},
		},
		{
			name:   "visible stop id emits its text",
			cfg:    StopConfig{VisibleStopIDs: []uint32{10}},
			ids:    []uint32{0, 10, 1},
			want:   []string{"Hello", "END"},
			reason: StopReason{Kind: StopVisibleID, ID: 10},
		},
		{
			name:   "hidden id wins over visible",
			cfg:    StopConfig{HiddenStopIDs: []uint32{10}, VisibleStopIDs: []uint32{10}},
			ids:    []uint32{0, 10},
			want:   []string{"Hello", ""},
			reason: StopReason{Kind: StopHiddenID, ID: 10},
		},
		{
			name:   "earliest match wins",
			cfg:    StopConfig{StopStrings: []string{"rld", "wor", "or"}},
			ids:    []uint32{0, 1, 2},
			want:   []string{"Hell", "o "}, // "o" could start "or"
			reason: StopReason{Kind: StopHiddenString, String: "wor"},
		},
		{
			name:   "longest match at the same position wins",
			cfg:    StopConfig{StopStrings: []string{"He", "Hel", "H"}},
			ids:    []uint32{0},
			want:   []string{""},
			reason: StopReason{Kind: StopHiddenString, String: "Hel"},
		},
		{
			name:   "match inside one token",
			cfg:    StopConfig{StopStrings: []string{"ll"}},
			ids:    []uint32{0},
			want:   []string{"He"},
			reason: StopReason{Kind: StopHiddenString, String: "ll"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewStopDecoder(NewDecodeStream(tok, DecodeStreamConfig{}), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			stopped := false
			for _, id := range tc.ids {
				b, st, err := d.Step(id)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(b))
				if st {
					stopped = true
					break
				}
			}
			if !stopped {
				b, err := d.Finish()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(b))
			} else if _, _, err := d.Step(0); !errors.Is(err, ErrStopped) {
				t.Errorf("Step after stop: %v, want ErrStopped", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("emitted (-want +got):\n%s", diff)
			}
			if d.Reason() != tc.reason {
				t.Errorf("Reason() = %+v, want %+v", d.Reason(), tc.reason)
			}
		})
	}
}

func TestStopDecoderEmptyString(t *testing.T) {
	if _, err := NewStopDecoder(NewDecodeStream(fakeTok{}, DecodeStreamConfig{}), StopConfig{StopStrings: []string{""}}); err == nil {
		t.Fatal("empty stop string accepted")
	}
}

// TestStopDecoderAllSplits streams a real tokenizer's ids and checks, for a
// stop string placed at every position of the text, that the output equals
// the text up to the stop string and never contains part of it.
func TestStopDecoderAllSplits(t *testing.T) {
	tok := loadLarge(t, "qwen3/tokenizer.json")
	text := "Thought: I need a tool.\nAction: search\nObservation: 42 results\nFinal"
	ids, _ := tok.Encode(text, false)
	for _, stop := range []string{"\nObservation:", "tool.", "Obs", "results\nFin", "zzz"} {
		d, err := NewStopDecoder(NewDecodeStream(tok, DecodeStreamConfig{}), StopConfig{StopStrings: []string{stop}})
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		stopped := false
		for _, id := range ids {
			b, st, err := d.Step(id)
			if err != nil {
				t.Fatal(err)
			}
			got.Write(b)
			if st {
				stopped = true
				break
			}
		}
		if !stopped {
			b, _ := d.Finish()
			got.Write(b)
		}
		want := text
		if i := strings.Index(text, stop); i >= 0 {
			want = text[:i]
		}
		if got.String() != want {
			t.Errorf("stop %q: got %q, want %q", stop, got.String(), want)
		}
	}
}

func TestStopDecoderAllocs(t *testing.T) {
	tok := loadLarge(t, "qwen3/tokenizer.json")
	ids, _ := tok.Encode(strings.Repeat("Some output text with a stop-like \nObs prefix. ", 20), false)
	d, _ := NewStopDecoder(NewDecodeStream(tok, DecodeStreamConfig{}), StopConfig{StopStrings: []string{"\nObservation:"}, HiddenStopIDs: []uint32{151645}})
	for _, id := range ids {
		_, _, _ = d.Step(id)
	}
	i := 0
	allocs := testing.AllocsPerRun(len(ids), func() {
		_, _, _ = d.Step(ids[i%len(ids)])
		i++
	})
	if allocs != 0 {
		t.Errorf("StopDecoder.Step allocates %v times per token, want 0", allocs)
	}
}

// TestStopDecoderMinTokens: no stop condition applies before the
// MinTokens-th token; from it on, every one does.
func TestStopDecoderMinTokens(t *testing.T) {
	vocab := []string{"ST", "OP", "Hello", "STOP", " more", "<eos>"}
	tok := fakeTok{vocab: vocab}
	tests := []struct {
		name   string
		cfg    StopConfig
		ids    []uint32
		want   []string
		reason StopReason
	}{
		{name: "a string completed before the minimum is text",
			cfg: StopConfig{StopStrings: []string{"STOP"}, MinTokens: 3}, ids: []uint32{0, 1, 2, 3, 4},
			want: []string{"ST", "OP", "Hello", ""}, reason: StopReason{Kind: StopHiddenString, String: "STOP"}},
		{name: "text emitted before the minimum is not part of a match",
			cfg: StopConfig{StopStrings: []string{"STOP"}, MinTokens: 2}, ids: []uint32{0, 1, 4},
			want: []string{"ST", "OP", " more", ""}},
		{name: "the minimum-th token can stop",
			cfg: StopConfig{StopStrings: []string{"STOP"}, MinTokens: 2}, ids: []uint32{0, 3, 4},
			want: []string{"ST", ""}, reason: StopReason{Kind: StopHiddenString, String: "STOP"}},
		{name: "a stop id before the minimum is text",
			cfg: StopConfig{HiddenStopIDs: []uint32{5}, MinTokens: 2}, ids: []uint32{5, 2, 5},
			want: []string{"<eos>", "Hello", ""}, reason: StopReason{Kind: StopHiddenID, ID: 5}},
		{name: "finish before the minimum looks for no string",
			cfg: StopConfig{StopStrings: []string{"STOP"}, MinTokens: 5}, ids: []uint32{3},
			want: []string{"STOP", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewStopDecoder(NewDecodeStream(tok, DecodeStreamConfig{}), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := runStops(t, d, tc.ids)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("emitted (-want +got):\n%s", diff)
			}
			if d.Reason() != tc.reason {
				t.Errorf("Reason() = %+v, want %+v", d.Reason(), tc.reason)
			}
		})
	}
}

// runStops steps ids through d until it stops, then finishes it if it has
// not, and returns what each call emitted.
func runStops(t *testing.T, d *StopDecoder, ids []uint32) []string {
	t.Helper()
	var got []string
	for _, id := range ids {
		b, stopped, err := d.Step(id)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
		if stopped {
			return got
		}
	}
	b, err := d.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return append(got, string(b))
}

// TestStopDecoderText: without a DecodeStream, StepText applies the stop
// strings to an engine's text (counting its tokens towards MinTokens) and
// Step applies the stop ids to undecoded ids.
func TestStopDecoderText(t *testing.T) {
	d, err := NewStopDecoder(nil, StopConfig{StopStrings: []string{"###END"}, MinTokens: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range []string{"line ###END", "one\n##", "#E", "ND tail"} {
		b, stopped, err := d.StepText([]byte(s), 1)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
		if stopped {
			break
		}
	}
	if diff := cmp.Diff([]string{"line ###END", "one\n", "", ""}, got); diff != "" {
		t.Errorf("emitted (-want +got):\n%s", diff)
	}
	if r := d.Reason(); r != (StopReason{Kind: StopHiddenString, String: "###END"}) {
		t.Errorf("Reason() = %+v", r)
	}
	if _, _, err := d.StepText([]byte("x"), 1); !errors.Is(err, ErrStopped) {
		t.Errorf("StepText after stop: %v, want ErrStopped", err)
	}

	if err := d.ResetWith(nil, StopConfig{VisibleStopIDs: []uint32{7}}); err != nil {
		t.Fatal(err)
	}
	for i, id := range []uint32{1, 2, 7} {
		b, stopped, err := d.Step(id)
		if err != nil || len(b) != 0 || stopped != (i == 2) {
			t.Fatalf("Step(%d) = %q, %v, %v", id, b, stopped, err)
		}
	}
	if r := d.Reason(); r != (StopReason{Kind: StopVisibleID, ID: 7}) {
		t.Errorf("Reason() = %+v", r)
	}
}

// TestStopDecoderResetWith: new stop conditions replace the old ones, an
// empty stop string is refused and leaves the decoder as it was, and
// reconfiguring a warmed-up decoder allocates nothing.
func TestStopDecoderResetWith(t *testing.T) {
	tok := fakeTok{vocab: []string{"Hello", " wor", "ld"}}
	d, err := NewStopDecoder(NewDecodeStream(tok, DecodeStreamConfig{}), StopConfig{StopStrings: []string{"wor"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.ResetWith(nil, StopConfig{StopStrings: []string{"x", ""}}); !errors.Is(err, errEmptyStop) {
		t.Fatalf("empty stop string: %v", err)
	}
	if diff := cmp.Diff([]string{"Hello", " "}, runStops(t, d, []uint32{0, 1, 2})); diff != "" {
		t.Errorf("after a refused ResetWith (-want +got):\n%s", diff)
	}
	cfgs := []StopConfig{
		{VisibleStopStrings: []string{"ld", "rl"}, HiddenStopIDs: []uint32{9}},
		{StopStrings: []string{"wor"}},
	}
	wants := [][]string{{"Hello", " wo", "rl"}, {"Hello", " "}}
	for i, cfg := range cfgs {
		if err := d.ResetWith(nil, cfg); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wants[i], runStops(t, d, []uint32{0, 1, 2})); diff != "" {
			t.Errorf("config %d (-want +got):\n%s", i, diff)
		}
	}
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		_ = d.ResetWith(nil, cfgs[i%2])
		i++
	})
	if allocs != 0 {
		t.Errorf("ResetWith allocates %v times, want 0", allocs)
	}
}
