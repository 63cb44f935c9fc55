package protocols

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// IDSource mints random identifiers (`toolu_` + 32 hex digits and the
// like) without allocating. The zero value is not usable; call NewIDSource.
// It is not safe for concurrent use: emitters own one each.
type IDSource struct {
	rng *rand.ChaCha8
}

// NewIDSource returns an IDSource seeded from crypto/rand.
func NewIDSource() IDSource {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		// crypto/rand does not fail on supported platforms (Go 1.24
		// documents that Read never returns an error); keep a usable,
		// if predictable, source rather than panicking.
		binary.LittleEndian.PutUint64(seed[:], rand.Uint64())
	}
	return IDSource{rng: rand.NewChaCha8(seed)}
}

// NewSeededIDSource returns a deterministic IDSource (for tests, examples
// and replays; never for production ids).
func NewSeededIDSource(seed uint64) IDSource {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	return IDSource{rng: rand.NewChaCha8(s)}
}

// IsZero reports whether s is the zero IDSource (not usable).
func (s IDSource) IsZero() bool { return s.rng == nil }

// AppendHex appends prefix followed by 32 random lower-case hex digits.
func (s IDSource) AppendHex(dst []byte, prefix string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, prefix...)
	for range 2 {
		u := s.rng.Uint64()
		for range 16 {
			dst = append(dst, hex[u&0xF])
			u >>= 4
		}
	}
	return dst
}

// New returns prefix followed by 32 random hex digits, as a string (one
// allocation; for cold paths).
func (s IDSource) New(prefix string) string {
	var buf [64]byte
	return string(s.AppendHex(buf[:0], prefix))
}
