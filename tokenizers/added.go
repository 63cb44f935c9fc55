package tokenizers

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// addedToken is an entry of tokenizer.json's added_tokens (or a tiktoken
// special token).
type addedToken struct {
	content    string
	id         uint32
	special    bool
	lstrip     bool // the match swallows white space on its left
	rstrip     bool // the match swallows white space on its right
	normalized bool // matched in the normalized text rather than the input
	singleWord bool // matched only when not inside a word
}

// trie finds added tokens in text, leftmost-longest, as Hugging Face's
// Aho-Corasick matcher does.
type trie struct {
	nodes []trieNode
}

type trieNode struct {
	edges []trieEdge
	tok   int32 // index into the token list, -1 if no token ends here
}

type trieEdge struct {
	b    byte
	next int32
}

func newTrie() *trie { return &trie{nodes: []trieNode{{tok: -1}}} }

func (t *trie) add(s string, tok int) {
	n := int32(0)
	for i := 0; i < len(s); i++ {
		nx := int32(-1)
		for _, e := range t.nodes[n].edges {
			if e.b == s[i] {
				nx = e.next
				break
			}
		}
		if nx < 0 {
			nx = int32(len(t.nodes))
			t.nodes = append(t.nodes, trieNode{tok: -1})
			t.nodes[n].edges = append(t.nodes[n].edges, trieEdge{b: s[i], next: nx})
		}
		n = nx
	}
	if t.nodes[n].tok < 0 {
		t.nodes[n].tok = int32(tok)
	}
}

func (t *trie) empty() bool { return len(t.nodes) == 1 }

// longestAt returns the token index and end of the longest token starting at
// s[i], or -1.
func (t *trie) longestAt(s string, i int) (tok int, end int) {
	tok, end = -1, -1
	n := int32(0)
	for j := i; j < len(s); j++ {
		nx := int32(-1)
		for _, e := range t.nodes[n].edges {
			if e.b == s[j] {
				nx = e.next
				break
			}
		}
		if nx < 0 {
			break
		}
		n = nx
		if t.nodes[n].tok >= 0 {
			tok, end = int(t.nodes[n].tok), j+1
		}
	}
	return tok, end
}

// addedMatcher splits text around added tokens.
type addedMatcher struct {
	tokens []addedToken
	trie   *trie
	first  [256]bool // bytes that can start a token
	// only is the one byte every token starts with ('<' in the large
	// files), found with strings.IndexByte; -1 when there are several.
	only int
}

func newAddedMatcher(tokens []addedToken) *addedMatcher {
	m := &addedMatcher{tokens: tokens, trie: newTrie(), only: -1}
	firsts := 0
	for i, t := range tokens {
		if t.content == "" {
			continue
		}
		m.trie.add(t.content, i)
		if !m.first[t.content[0]] {
			firsts++
			m.first[t.content[0]] = true
			m.only = int(t.content[0])
		}
	}
	if firsts != 1 {
		m.only = -1
	}
	return m
}

// next finds the leftmost-longest added token in s at or after from that
// satisfies its single_word flag (judged on the whole of s, as Hugging Face
// does). It returns the token and the bounds of the match, widened by
// lstrip/rstrip to the white space the token swallows (not below from).
func (m *addedMatcher) next(s string, from int) (tok *addedToken, start, end int) {
	if m == nil || m.trie.empty() {
		return nil, -1, -1
	}
	for i := from; i < len(s); i++ {
		if m.only >= 0 {
			j := strings.IndexByte(s[i:], byte(m.only))
			if j < 0 {
				break
			}
			i += j
		} else if !m.first[s[i]] {
			continue
		}
		k, e := m.trie.longestAt(s, i)
		if k < 0 {
			continue
		}
		t := &m.tokens[k]
		if t.singleWord && !(wordBoundaryBefore(s, i) && wordBoundaryAfter(s, e)) {
			// Discarded; like Hugging Face's non-overlapping match
			// iterator, the search resumes after the match.
			i = e - 1
			continue
		}
		start, end = i, e
		if t.lstrip {
			for start > from {
				r, n := utf8.DecodeLastRuneInString(s[:start])
				if !unicode.IsSpace(r) {
					break
				}
				start -= n
			}
		}
		if t.rstrip {
			for end < len(s) {
				r, n := utf8.DecodeRuneInString(s[end:])
				if !unicode.IsSpace(r) {
					break
				}
				end += n
			}
		}
		return t, start, end
	}
	return nil, -1, -1
}

// isWordRune reports whether r is matched by \w in Rust's regex crate
// (Alphabetic, marks, decimal digits, connector punctuation, join controls),
// which Hugging Face uses for single_word.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
		unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r) || r == 0x200C || r == 0x200D
}

func wordBoundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !isWordRune(r)
}

func wordBoundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isWordRune(r)
}
