package tokenizers

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrStopped is returned by StopDecoder.Step and Finish after the sequence
// has stopped.
var ErrStopped = errors.New("tokenizers: stop decoder already stopped")

// errEmptyStop is returned for an empty stop string.
var errEmptyStop = errors.New("tokenizers: empty stop string")

// StopConfig lists the conditions that end a generated sequence.
type StopConfig struct {
	// HiddenStopIDs end the sequence without emitting the token's text
	// (EOS, <|im_end|>). A hidden id wins over a visible one.
	HiddenStopIDs []uint32
	// VisibleStopIDs end the sequence after emitting the token's text.
	VisibleStopIDs []uint32
	// StopStrings end the sequence at their first occurrence; the text
	// before the match is emitted, the match is not (OpenAI "stop").
	StopStrings []string
	// VisibleStopStrings end the sequence at their first occurrence
	// including the match in the output.
	VisibleStopStrings []string
	// MinTokens defers every stop condition until MinTokens tokens were
	// generated: the tokens before the MinTokens-th are never stop ids
	// and their text is emitted as it comes, without looking for stop
	// strings (min_tokens). 0 and 1 defer nothing.
	MinTokens int
}

// StopKind says why a sequence stopped.
type StopKind uint8

const (
	NotStopped        StopKind = iota // still running
	StopHiddenID                      // a hidden stop token id
	StopVisibleID                     // a visible stop token id
	StopHiddenString                  // a stop string, not emitted
	StopVisibleString                 // a visible stop string, emitted
)

var stopKindNames = [...]string{"NotStopped", "StopHiddenID", "StopVisibleID", "StopHiddenString", "StopVisibleString"}

func (k StopKind) String() string {
	if int(k) < len(stopKindNames) {
		return stopKindNames[k]
	}
	return fmt.Sprintf("StopKind(%d)", k)
}

// StopReason describes the stop condition that matched.
type StopReason struct {
	Kind   StopKind
	ID     uint32 // the stop token id (StopHiddenID, StopVisibleID)
	String string // the stop string (StopHiddenString, StopVisibleString)
}

// StopDecoder applies stop token ids and stop strings on top of a
// DecodeStream. A stop string split across tokens is never partially
// emitted: the longest suffix of the unemitted text that is a proper prefix
// of a stop string is held back, and released as soon as it can no longer
// become a match (or at Finish). Among matches the earliest wins, and among
// matches at the same position the longest. Memory is bounded by the longest
// stop string plus one step's text.
//
// Call sequence:
//
//	NewStopDecoder { Step | StepText } Finish [ Reset|ResetWith { Step | StepText } Finish ]
//
// Step returns text and whether the sequence stopped; once stopped, Step,
// StepText and Finish return ErrStopped. The []byte returned aliases the
// decoder's (or its stream's) buffers and is valid until the next call.
//
// A StopDecoder made with a nil DecodeStream serves an engine that
// detokenizes itself: StepText applies the stop strings to its text, and
// Step applies the stop ids to ids that are passed on undecoded (it
// returns no text).
//
// Not safe for concurrent use; allocation-free per token after warm-up,
// and ResetWith reuses the decoder's buffers.
type StopDecoder struct {
	stream    *DecodeStream // nil: ids are not decoded
	hidden    []uint32
	visible   []uint32
	strs      []stopString
	strBytes  []byte // the stop strings' bytes, back to back (strs[i].b)
	maxLen    int
	minTokens int

	generated int // tokens generated in this sequence
	held      []byte
	out       []byte
	stopped   bool
	reason    StopReason
}

type stopString struct {
	s       string
	b       []byte // s as bytes (in strBytes), for allocation-free search
	visible bool
}

// NewStopDecoder wraps stream (nil: see StopDecoder) with the stop
// conditions of cfg. Empty stop strings are an error.
func NewStopDecoder(stream *DecodeStream, cfg StopConfig) (*StopDecoder, error) {
	d := &StopDecoder{stream: stream}
	if err := d.configure(cfg); err != nil {
		return nil, err
	}
	return d, nil
}

// Reset starts a new sequence after prompt with the same stop conditions.
func (d *StopDecoder) Reset(prompt []uint32) {
	if d.stream != nil {
		d.stream.Reset(prompt)
	}
	d.held = d.held[:0]
	d.generated = 0
	d.stopped = false
	d.reason = StopReason{}
}

// ResetWith starts a new sequence after prompt with the stop conditions of
// cfg, reusing d's buffers (no allocation once they have grown). On error
// (an empty stop string) d is unchanged.
func (d *StopDecoder) ResetWith(prompt []uint32, cfg StopConfig) error {
	if err := d.configure(cfg); err != nil {
		return err
	}
	d.Reset(prompt)
	return nil
}

func (d *StopDecoder) configure(cfg StopConfig) error {
	for _, list := range [2][]string{cfg.StopStrings, cfg.VisibleStopStrings} {
		for _, s := range list {
			if s == "" {
				return errEmptyStop
			}
		}
	}
	d.hidden = append(d.hidden[:0], cfg.HiddenStopIDs...)
	d.visible = append(d.visible[:0], cfg.VisibleStopIDs...)
	d.strs, d.strBytes, d.maxLen = d.strs[:0], d.strBytes[:0], 0
	for i, list := range [2][]string{cfg.StopStrings, cfg.VisibleStopStrings} {
		for _, s := range list {
			d.strs = append(d.strs, stopString{s: s, visible: i == 1})
			d.strBytes = append(d.strBytes, s...)
			d.maxLen = max(d.maxLen, len(s))
		}
	}
	off := 0
	for i := range d.strs {
		n := len(d.strs[i].s)
		d.strs[i].b = d.strBytes[off : off+n : off+n]
		off += n
	}
	d.minTokens = cfg.MinTokens
	return nil
}

// Reason returns why the sequence stopped (Kind NotStopped while running).
func (d *StopDecoder) Reason() StopReason { return d.reason }

// Step adds one generated id. It returns the text to emit and whether the
// sequence has now stopped.
func (d *StopDecoder) Step(id uint32) ([]byte, bool, error) {
	if d.stopped {
		return nil, true, ErrStopped
	}
	d.generated++
	armed := d.generated >= d.minTokens
	if armed && containsID(d.hidden, id) {
		// The held text cannot complete a stop string any more.
		d.out = append(d.out[:0], d.held...)
		d.held = d.held[:0]
		d.stop(StopReason{Kind: StopHiddenID, ID: id})
		return d.out, true, nil
	}
	var text []byte
	if d.stream != nil {
		var err error
		if text, err = d.stream.Step(id); err != nil {
			return nil, false, err
		}
	}
	if armed && containsID(d.visible, id) {
		d.held = append(d.held, text...)
		if d.stream != nil {
			tail, err := d.stream.Finish()
			if err != nil {
				return nil, false, err
			}
			d.held = append(d.held, tail...)
		}
		if d.match() {
			return d.out, true, nil
		}
		d.out = append(d.out[:0], d.held...)
		d.held = d.held[:0]
		d.stop(StopReason{Kind: StopVisibleID, ID: id})
		return d.out, true, nil
	}
	out, stopped := d.push(text, armed)
	return out, stopped, nil
}

// StepText adds text that an engine decoded itself, for tokens generated
// tokens (they count towards MinTokens), and returns the text to emit and
// whether a stop string matched. The stop ids do not apply to it.
func (d *StopDecoder) StepText(text []byte, tokens int) ([]byte, bool, error) {
	if d.stopped {
		return nil, true, ErrStopped
	}
	d.generated += tokens
	out, stopped := d.push(text, d.generated >= d.minTokens)
	return out, stopped, nil
}

// push applies the stop strings to text (not before MinTokens: armed
// false), holding back what may still grow into a match.
func (d *StopDecoder) push(text []byte, armed bool) ([]byte, bool) {
	if !armed || len(d.strs) == 0 {
		if len(d.held) == 0 {
			return text, false // nothing can be held: no copy
		}
		d.out = append(append(d.out[:0], d.held...), text...)
		d.held = d.held[:0]
		return d.out, false
	}
	d.held = append(d.held, text...)
	if d.match() {
		return d.out, true
	}
	// Emit all but the longest suffix that may still grow into a match.
	keep := d.prefixSuffix()
	d.out = append(d.out[:0], d.held[:len(d.held)-keep]...)
	d.held = append(d.held[:0], d.held[len(d.held)-keep:]...)
	return d.out, false
}

// Finish ends the sequence: it flushes the stream and the held text,
// applying the stop strings one last time (once MinTokens tokens were
// generated).
func (d *StopDecoder) Finish() ([]byte, error) {
	if d.stopped {
		return nil, ErrStopped
	}
	if d.stream != nil {
		tail, err := d.stream.Finish()
		if err != nil {
			return nil, err
		}
		d.held = append(d.held, tail...)
	}
	if d.generated >= d.minTokens && d.match() {
		return d.out, nil
	}
	d.out = append(d.out[:0], d.held...)
	d.held = d.held[:0]
	return d.out, nil
}

func (d *StopDecoder) stop(r StopReason) {
	d.stopped = true
	d.reason = r
}

func containsID(ids []uint32, id uint32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// match looks for a stop string in the held text; on a match it sets d.out
// to the text to emit and stops.
func (d *StopDecoder) match() bool {
	best, bestLen := -1, 0
	var bestStr *stopString
	for i := range d.strs {
		ss := &d.strs[i]
		j := bytes.Index(d.held, ss.b)
		if j < 0 {
			continue
		}
		if best < 0 || j < best || j == best && len(ss.s) > bestLen {
			best, bestLen, bestStr = j, len(ss.s), ss
		}
	}
	if best < 0 {
		return false
	}
	end := best
	kind := StopHiddenString
	if bestStr.visible {
		end += bestLen
		kind = StopVisibleString
	}
	d.out = append(d.out[:0], d.held[:end]...)
	d.held = d.held[:0]
	d.stop(StopReason{Kind: kind, String: bestStr.s})
	return true
}

// prefixSuffix returns the length of the longest suffix of the held text
// that is a proper prefix of some stop string.
func (d *StopDecoder) prefixSuffix() int {
	n := min(len(d.held), d.maxLen-1)
	for l := n; l > 0; l-- {
		suf := d.held[len(d.held)-l:]
		for i := range d.strs {
			if b := d.strs[i].b; len(b) > l && bytes.Equal(b[:l], suf) {
				return l
			}
		}
	}
	return 0
}
