package pipeline

import (
	"bytes"

	"github.com/agentwire/agentwire/preprocess/engine"
)

// stopper applies stop conditions to decoded text on the token-id path
// (text engines apply their own stops). It holds back the longest suffix of
// unemitted text that is a proper prefix of a stop string, so a stop string
// split across tokens is never partially emitted; among complete matches
// the earliest wins, and among matches at one position the longest. Stop
// conditions are ignored until minTokens ids were generated. Memory is
// bounded by the longest stop string plus one step's text.
type stopper struct {
	hidden  []uint32
	visible []uint32
	strs    [][]byte
	include bool // stop strings are emitted (include_stop_str_in_output)
	min     int  // min_tokens

	held []byte
	out  []byte

	stopped bool
	reason  []byte // the matched stop string (aliases strs)
	hasID   bool
	id      uint32
}

func (s *stopper) reset(st *engine.Stop, minTokens int) {
	s.hidden = append(s.hidden[:0], st.HiddenIDs...)
	s.visible = s.visible[:0]
	for _, id := range st.VisibleIDs {
		if !containsID(s.hidden, id) { // hidden wins
			s.visible = append(s.visible, id)
		}
	}
	s.strs = s.strs[:0]
	for _, str := range st.Strings {
		if str != "" {
			s.strs = append(s.strs, []byte(str))
		}
	}
	s.include = st.IncludeStrings
	s.min = minTokens
	s.held = s.held[:0]
	s.stopped, s.reason, s.hasID, s.id = false, nil, false, 0
}

func containsID(ids []uint32, id uint32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// idKind classifies id: 0 ordinary, 1 hidden stop, 2 visible stop. generated
// counts the ids generated so far, id included.
func (s *stopper) idKind(id uint32, generated int) int {
	if generated < s.min {
		return 0
	}
	if containsID(s.hidden, id) {
		return 1
	}
	if containsID(s.visible, id) {
		return 2
	}
	return 0
}

// push adds decoded text and returns what may be emitted now (aliases s's
// buffer until the next call). It sets s.stopped when a stop string matched.
func (s *stopper) push(text []byte, generated int) []byte {
	if len(s.strs) == 0 || generated < s.min {
		if len(s.held) == 0 {
			return text
		}
		s.out = append(append(s.out[:0], s.held...), text...)
		s.held = s.held[:0]
		return s.out
	}
	s.held = append(s.held, text...)
	at, n := -1, 0
	for _, str := range s.strs {
		i := bytes.Index(s.held, str)
		if i >= 0 && (at < 0 || i < at || i == at && len(str) > n) {
			at, n = i, len(str)
			s.reason = str
		}
	}
	if at >= 0 {
		end := at
		if s.include {
			end += n
		}
		s.out = append(s.out[:0], s.held[:end]...)
		s.held = s.held[:0]
		s.stopped = true
		return s.out
	}
	keep := s.prefixSuffix()
	cut := len(s.held) - keep
	s.out = append(s.out[:0], s.held[:cut]...)
	s.held = append(s.held[:0], s.held[cut:]...)
	return s.out
}

// prefixSuffix returns the length of the longest suffix of held that is a
// proper prefix of some stop string.
func (s *stopper) prefixSuffix() int {
	best := 0
	for _, str := range s.strs {
		for k := min(len(str)-1, len(s.held)); k > best; k-- {
			if bytes.Equal(s.held[len(s.held)-k:], str[:k]) {
				best = k
				break
			}
		}
	}
	return best
}

// flush returns the held text at the end of the sequence (no stop string
// completed).
func (s *stopper) flush() []byte {
	s.out = append(s.out[:0], s.held...)
	s.held = s.held[:0]
	return s.out
}
