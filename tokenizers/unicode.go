package tokenizers

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// class is a bit set of the Unicode properties the split patterns test:
// general categories (\p{L}, \p{Lu}, …) and White_Space (\s).
type class uint16

const (
	cLu    class = 1 << iota // uppercase letter
	cLl                      // lowercase letter
	cLt                      // titlecase letter
	cLm                      // modifier letter
	cLo                      // other letter
	cM                       // mark (Mn, Mc, Me)
	cN                       // number (Nd, Nl, No)
	cP                       // punctuation
	cS                       // symbol
	cSpace                   // White_Space, what \s matches
	cHan                     // script Han (Kimi's pattern)

	cL = cLu | cLl | cLt | cLm | cLo
)

// bmpClass holds the class of every code point of the Basic Multilingual
// Plane; code points above it are classified on the fly (emoji, rare
// scripts), which is slower but uncommon.
var (
	bmpOnce  sync.Once
	bmpClass []class
	// asciiClass is bmpClass[:128] as an array: the scanners' fast path
	// for ASCII indexes it without a bounds check.
	asciiClass [128]class
)

func initClasses() {
	bmpOnce.Do(func() {
		t := make([]class, 0x10000)
		set := func(tab *unicode.RangeTable, c class) {
			for _, r := range tab.R16 {
				for x := uint32(r.Lo); x <= uint32(r.Hi); x += uint32(r.Stride) {
					t[x] |= c
				}
			}
		}
		set(unicode.Lu, cLu)
		set(unicode.Ll, cLl)
		set(unicode.Lt, cLt)
		set(unicode.Lm, cLm)
		set(unicode.Lo, cLo)
		set(unicode.M, cM)
		set(unicode.N, cN)
		set(unicode.P, cP)
		set(unicode.S, cS)
		set(unicode.White_Space, cSpace)
		set(unicode.Han, cHan)
		for _, o := range classOverrides {
			for r := o.lo; r <= o.hi && r < 0x10000; r++ {
				t[r] = o.bits
			}
		}
		bmpClass = t
		copy(asciiClass[:], t)
	})
}

// classOf returns the class of r. initClasses must have run.
func classOf(r rune) class {
	if uint32(r) < 0x10000 {
		return bmpClass[r]
	}
	if c, ok := overrideOf(r); ok {
		return c
	}
	var c class
	switch {
	case unicode.Is(unicode.Lu, r):
		c = cLu
	case unicode.Is(unicode.Ll, r):
		c = cLl
	case unicode.Is(unicode.Lt, r):
		c = cLt
	case unicode.Is(unicode.Lm, r):
		c = cLm
	case unicode.Is(unicode.Lo, r):
		c = cLo
	case unicode.Is(unicode.M, r):
		c = cM
	case unicode.Is(unicode.N, r):
		c = cN
	case unicode.Is(unicode.P, r):
		c = cP
	case unicode.Is(unicode.S, r):
		c = cS
	}
	if unicode.Is(unicode.Han, r) {
		c |= cHan
	}
	return c
}

// at decodes the rune at s[i] and returns it with its size and class. An
// invalid byte decodes as U+FFFD of size 1 (class So), so a scanner never
// stalls on malformed input.
func at(s string, i int) (rune, int, class) {
	b := s[i]
	if b < utf8.RuneSelf {
		return rune(b), 1, asciiClass[b]
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return r, n, classOf(r)
}

// classRange gives the class of the code points lo…hi.
type classRange struct {
	lo, hi rune
	bits   class
}

// overrideOf looks r up in classOverrides.
func overrideOf(r rune) (class, bool) {
	lo, hi := 0, len(classOverrides)
	for lo < hi {
		m := (lo + hi) / 2
		switch o := classOverrides[m]; {
		case r < o.lo:
			hi = m
		case r > o.hi:
			lo = m + 1
		default:
			return o.bits, true
		}
	}
	return 0, false
}
