package jinja

// Python's pprint.pformat (patch, pprint.go is new) for the pprint filter:
// width 80, one indent per level, dict keys sorted, containers and strings
// wider than the line split as PrettyPrinter splits them.

import (
	"sort"
	"strings"
	"unicode/utf8"
)

const pprintWidth = 80

// pprintRepr is PrettyPrinter._safe_repr: repr with dict keys sorted.
func pprintRepr(b []byte, v Value) []byte {
	switch v.kind {
	case KindDict:
		d := v.AsDict()
		keys := pprintSortedKeys(d)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = pprintRepr(b, d.keyValue(k))
			b = append(b, ": "...)
			b = pprintRepr(b, d.Data[k])
		}
		return append(b, '}')
	case KindList:
		l := v.AsList()
		if l.seq != seqList {
			break
		}
		open, close := byte('['), byte(']')
		if l.Tuple {
			open, close = '(', ')'
		}
		b = append(b, open)
		for i, it := range l.Items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = pprintRepr(b, it)
		}
		if l.Tuple && len(l.Items) == 1 {
			b = append(b, ',')
		}
		return append(b, close)
	}
	return appendPyRepr(b, v)
}

// pprintSortedKeys orders a dict's keys as sorted(d.items(), key=_safe_tuple):
// by Python's <, keys of different types by their type name.
func pprintSortedKeys(d *Dict) []string {
	keys := append([]string(nil), d.Keys...)
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := d.keyValue(keys[i]), d.keyValue(keys[j])
		less, err := pyLess(a, b)
		if err != nil {
			return pyTypeName(a) < pyTypeName(b)
		}
		return less
	})
	return keys
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// pprintFormat is PrettyPrinter._format.
func pprintFormat(b *strings.Builder, v Value, indent, allowance, level int) {
	rep := string(pprintRepr(nil, v))
	maxWidth := pprintWidth - indent - allowance
	if runeLen(rep) <= maxWidth {
		b.WriteString(rep)
		return
	}
	switch v.kind {
	case KindDict:
		d := v.AsDict()
		b.WriteByte('{')
		if len(d.Keys) > 0 {
			keys := pprintSortedKeys(d)
			ind := indent + 1
			for i, k := range keys {
				last := i == len(keys)-1
				krep := string(pprintRepr(nil, d.keyValue(k)))
				b.WriteString(krep)
				b.WriteString(": ")
				al := 1
				if last {
					al = allowance + 1
				}
				pprintFormat(b, d.Data[k], ind+runeLen(krep)+2, al, level+1)
				if !last {
					b.WriteString(",\n" + strings.Repeat(" ", ind))
				}
			}
		}
		b.WriteByte('}')
		return
	case KindList:
		l := v.AsList()
		if l.seq != seqList {
			break
		}
		if l.Tuple {
			end := ")"
			if len(l.Items) == 1 {
				end = ",)"
			}
			b.WriteByte('(')
			pprintItems(b, l.Items, indent, allowance+len(end), level+1)
			b.WriteString(end)
			return
		}
		b.WriteByte('[')
		pprintItems(b, l.Items, indent, allowance+1, level+1)
		b.WriteByte(']')
		return
	case KindString:
		pprintStr(b, v.AsString(), indent, allowance, level+1)
		return
	}
	b.WriteString(rep)
}

// pprintItems is PrettyPrinter._format_items (not compact).
func pprintItems(b *strings.Builder, items []Value, indent, allowance, level int) {
	indent++
	for i, it := range items {
		if i > 0 {
			b.WriteString(",\n" + strings.Repeat(" ", indent))
		}
		al := 1
		if i == len(items)-1 {
			al = allowance
		}
		pprintFormat(b, it, indent, al, level)
	}
}

// pprintStr is PrettyPrinter._pprint_str: a long string split at line ends
// and then between words into adjacent literals, in parentheses at the top
// level.
func pprintStr(b *strings.Builder, s string, indent, allowance, level int) {
	if s == "" {
		b.Write(appendPyStrRepr(nil, s))
		return
	}
	var chunks []string
	lines := pySplitlines(s, true)
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth := pprintWidth - indent
	maxWidth1 := maxWidth
	for i, line := range lines {
		rep := string(appendPyStrRepr(nil, line))
		if i == len(lines)-1 {
			maxWidth1 -= allowance
		}
		if runeLen(rep) <= maxWidth1 {
			chunks = append(chunks, rep)
			continue
		}
		parts := nonSpaceSpaceParts(line)
		maxWidth2 := maxWidth
		current := ""
		for j, part := range parts {
			candidate := current + part
			if j == len(parts)-1 && i == len(lines)-1 {
				maxWidth2 -= allowance
			}
			if runeLen(string(appendPyStrRepr(nil, candidate))) > maxWidth2 {
				if current != "" {
					chunks = append(chunks, string(appendPyStrRepr(nil, current)))
				}
				current = part
			} else {
				current = candidate
			}
		}
		if current != "" {
			chunks = append(chunks, string(appendPyStrRepr(nil, current)))
		}
	}
	if len(chunks) == 1 {
		b.WriteString(chunks[0])
		return
	}
	if level == 1 {
		b.WriteByte('(')
	}
	for i, c := range chunks {
		if i > 0 {
			b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		b.WriteString(c)
	}
	if level == 1 {
		b.WriteByte(')')
	}
}

// nonSpaceSpaceParts is re.findall(r'\S*\s*', line) without its final
// empty match.
func nonSpaceSpaceParts(line string) []string {
	var parts []string
	i := 0
	for i < len(line) {
		j := i
		for j < len(line) {
			r, n := utf8.DecodeRuneInString(line[j:])
			if isPySpace(r) {
				break
			}
			j += n
		}
		for j < len(line) {
			r, n := utf8.DecodeRuneInString(line[j:])
			if !isPySpace(r) {
				break
			}
			j += n
		}
		parts = append(parts, line[i:j])
		i = j
	}
	return parts
}
