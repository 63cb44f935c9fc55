// Package sse reads and writes server-sent event streams (the framing of every
// streaming API agentwire speaks): `event:`, `data:` and `id:` fields,
// comment lines, events ended by a blank line.
//
// A Reader returns views into its own buffers; the slices of an Event are
// valid until the next call to Next. A Reader is not safe for concurrent
// use.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Event is one server-sent event.
type Event struct {
	Name     []byte   // the `event:` field; empty for unnamed events
	Data     []byte   // the `data:` lines joined with "\n"
	ID       []byte   // the `id:` field, if any
	Comments [][]byte // comment lines (`: …`) seen since the previous event, without the colon
}

// ErrLineTooLong is returned when a line exceeds the Reader's limit.
var ErrLineTooLong = errors.New("sse: line too long")

// Reader reads events from an underlying io.Reader.
type Reader struct {
	br      *bufio.Reader
	max     int
	line    []byte
	ev      Event
	data    []byte
	name    []byte
	id      []byte
	comment []byte
	cstarts []int
}

// NewReader returns a Reader with lines limited to maxLine bytes (0 means
// 16 MiB: a tool call's arguments can be large).
func NewReader(r io.Reader, maxLine int) *Reader {
	if maxLine <= 0 {
		maxLine = 16 << 20
	}
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: maxLine}
}

// Next returns the next event. At the end of the stream it returns io.EOF
// (an event not terminated by a blank line is still returned first).
func (r *Reader) Next() (Event, error) {
	r.data, r.name, r.id, r.comment = r.data[:0], r.name[:0], r.id[:0], r.comment[:0]
	r.cstarts = r.cstarts[:0]
	hasData, hasAny := false, false
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && hasAny {
				return r.event(), nil
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if hasAny {
				return r.event(), nil
			}
			continue
		}
		if line[0] == ':' {
			r.cstarts = append(r.cstarts, len(r.comment))
			r.comment = append(r.comment, bytes.TrimPrefix(line[1:], []byte(" "))...)
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if hasData {
				r.data = append(r.data, '\n')
			}
			r.data = append(r.data, value...)
			hasData, hasAny = true, true
		case "event":
			r.name = append(r.name[:0], value...)
			hasAny = true
		case "id":
			r.id = append(r.id[:0], value...)
			hasAny = true
		}
	}
}

func (r *Reader) event() Event {
	r.ev = Event{Name: r.name, Data: r.data, ID: r.id, Comments: r.ev.Comments[:0]}
	for i, s := range r.cstarts {
		end := len(r.comment)
		if i+1 < len(r.cstarts) {
			end = r.cstarts[i+1]
		}
		r.ev.Comments = append(r.ev.Comments, r.comment[s:end])
	}
	return r.ev
}

// readLine returns the next line without its terminator (LF or CRLF).
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.line = append(r.line, chunk...)
		if len(r.line) > r.max {
			return nil, ErrLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(r.line) == 0) {
			return nil, err
		}
		line := bytes.TrimSuffix(r.line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}
