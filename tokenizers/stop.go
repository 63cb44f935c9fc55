package tokenizers

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrStopped is returned by StopDecoder.Step and Finish after the sequence
// has stopped.
var ErrStopped = errors.New("tokenizers: stop decoder already stopped")

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
// stop string.
//
// Call sequence:
//
//	NewStopDecoder { Step } Finish [ Reset { Step } Finish ]
//
// Step returns text and whether the sequence stopped; once stopped, Step
// and Finish return ErrStopped. The []byte returned aliases the decoder's
// buffer and is valid until the next call. Not safe for concurrent use;
// allocation-free per token after warm-up.
type StopDecoder struct {
	stream  *DecodeStream
	hidden  map[uint32]bool
	visible map[uint32]bool
	strs    []stopString
	maxLen  int

	held    []byte
	out     []byte
	stopped bool
	reason  StopReason
}

type stopString struct {
	s       string
	b       []byte // s as bytes, for allocation-free search
	visible bool
}

// NewStopDecoder wraps stream with the stop conditions of cfg. Empty stop
// strings are an error.
func NewStopDecoder(stream *DecodeStream, cfg StopConfig) (*StopDecoder, error) {
	d := &StopDecoder{stream: stream, hidden: map[uint32]bool{}, visible: map[uint32]bool{}}
	for _, id := range cfg.HiddenStopIDs {
		d.hidden[id] = true
	}
	for _, id := range cfg.VisibleStopIDs {
		d.visible[id] = true
	}
	add := func(list []string, visible bool) error {
		for _, s := range list {
			if s == "" {
				return errors.New("tokenizers: empty stop string")
			}
			d.strs = append(d.strs, stopString{s: s, b: []byte(s), visible: visible})
			d.maxLen = max(d.maxLen, len(s))
		}
		return nil
	}
	if err := add(cfg.StopStrings, false); err != nil {
		return nil, err
	}
	if err := add(cfg.VisibleStopStrings, true); err != nil {
		return nil, err
	}
	return d, nil
}

// Reset starts a new sequence after prompt with the same stop conditions.
func (d *StopDecoder) Reset(prompt []uint32) {
	d.stream.Reset(prompt)
	d.held = d.held[:0]
	d.stopped = false
	d.reason = StopReason{}
}

// Reason returns why the sequence stopped (Kind NotStopped while running).
func (d *StopDecoder) Reason() StopReason { return d.reason }

// Step adds one generated id. It returns the text to emit and whether the
// sequence has now stopped.
func (d *StopDecoder) Step(id uint32) ([]byte, bool, error) {
	if d.stopped {
		return nil, true, ErrStopped
	}
	if d.hidden[id] {
		// The held text cannot complete a stop string any more.
		d.out = append(d.out[:0], d.held...)
		d.held = d.held[:0]
		d.stop(StopReason{Kind: StopHiddenID, ID: id})
		return d.out, true, nil
	}
	text, err := d.stream.Step(id)
	if err != nil {
		return nil, false, err
	}
	if d.visible[id] {
		tail, err := d.stream.Finish()
		if err != nil {
			return nil, false, err
		}
		d.held = append(d.held, text...)
		d.held = append(d.held, tail...)
		if d.match() {
			return d.out, true, nil
		}
		d.out = append(d.out[:0], d.held...)
		d.held = d.held[:0]
		d.stop(StopReason{Kind: StopVisibleID, ID: id})
		return d.out, true, nil
	}
	d.held = append(d.held, text...)
	if d.match() {
		return d.out, true, nil
	}
	// Emit all but the longest suffix that may still grow into a match.
	keep := d.prefixSuffix()
	d.out = append(d.out[:0], d.held[:len(d.held)-keep]...)
	d.held = append(d.held[:0], d.held[len(d.held)-keep:]...)
	return d.out, false, nil
}

// Finish ends the sequence: it flushes the stream and the held text,
// applying the stop strings one last time.
func (d *StopDecoder) Finish() ([]byte, error) {
	if d.stopped {
		return nil, ErrStopped
	}
	tail, err := d.stream.Finish()
	if err != nil {
		return nil, err
	}
	d.held = append(d.held, tail...)
	if d.match() {
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
			s := d.strs[i].s
			if len(s) > l && s[:l] == string(suf) {
				return l
			}
		}
	}
	return 0
}
