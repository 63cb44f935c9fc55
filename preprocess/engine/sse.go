package engine

import (
	"bytes"
	"errors"
	"io"
)

// errLineTooLong and errEventTooLarge are returned by sseReader when the
// engine's stream exceeds the configured bounds.
var (
	errLineTooLong   = errors.New("engine stream line exceeds the line limit")
	errEventTooLarge = errors.New("engine stream event exceeds the event limit")
)

// sseReader reads the data payloads of a server-sent event stream with
// bounded, reused buffers: after warm-up it allocates nothing per event.
//
// It is smaller than protocols/sse.Reader on purpose: an engine adapter
// needs only the data of each event (and whether it was named "error"),
// wants a bound on the whole event as well as on a line, and reads the
// network through its own buffer so that a line is never copied twice.
//
// Framing follows the SSE rules: lines end with LF, CRLF or CR+LF; "data:"
// lines of one event are joined with "\n"; an event ends at a blank line
// (or at the end of the stream); comment lines (":…") and the id and retry
// fields are ignored. A single space after the colon is dropped. An event
// whose data is empty (or only white space) is not dispatched, as the SSE
// rules say of an empty data buffer, and neither is an event named "ping"
// (a keep-alive some servers and gateways send).
type sseReader struct {
	r io.Reader

	buf        []byte // read buffer; unread bytes are buf[start:end]
	start, end int
	maxLine    int
	maxEvent   int

	data    []byte // the current event's data, joined
	hasData bool
	isError bool // the current event is named "error"
	isPing  bool // the current event is named "ping"
	eof     bool // r returned io.EOF (remaining bytes may still be in buf)
	err     error
}

const sseInitialBuffer = 4 << 10

func (s *sseReader) reset(r io.Reader, maxLine, maxEvent int) {
	s.r = r
	s.start, s.end = 0, 0
	s.maxLine, s.maxEvent = maxLine, maxEvent
	if cap(s.buf) == 0 {
		s.buf = make([]byte, sseInitialBuffer)
	}
	s.buf = s.buf[:cap(s.buf)]
	s.data, s.hasData, s.isError = s.data[:0], false, false
	s.eof, s.err = false, nil
}

// next returns the data of the next event that has data, and whether the
// event was named "error". The slice is valid until the next call. At the
// end of the stream it returns io.EOF; an event cut off by the end of the
// stream is still returned first. Read errors are returned as they are.
func (s *sseReader) next() ([]byte, bool, error) {
	s.data, s.hasData, s.isError, s.isPing = s.data[:0], false, false, false
	for {
		line, err := s.line()
		if err != nil {
			if err == io.EOF && s.dispatch() {
				return s.data, s.isError, nil
			}
			return nil, false, err
		}
		if len(line) == 0 {
			if s.dispatch() {
				return s.data, s.isError, nil
			}
			// an event without data (or a ping) is ignored
			s.data, s.hasData, s.isError, s.isPing = s.data[:0], false, false, false
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if len(s.data)+len(value)+1 > s.maxEvent {
				return nil, false, errEventTooLarge
			}
			if s.hasData {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			s.hasData = true
		case "event":
			s.isError = string(value) == "error"
			s.isPing = string(value) == "ping"
		}
	}
}

// dispatch reports whether the event read so far is one to return: it has
// data other than white space and is not a ping.
func (s *sseReader) dispatch() bool {
	return s.hasData && !s.isPing && len(bytes.TrimSpace(s.data)) > 0
}

// line returns the next line without its terminator, as a view into the
// read buffer valid until the next call.
func (s *sseReader) line() ([]byte, error) {
	scanned := 0
	for {
		if i := lineEnd(s.buf[s.start+scanned : s.end]); i >= 0 {
			i += s.start + scanned
			if i-s.start > s.maxLine {
				return nil, errLineTooLong
			}
			line := s.buf[s.start:i]
			next := i + 1
			if s.buf[i] == '\r' {
				if next == s.end && !s.eof {
					// A CR at the end of the buffer: the LF may follow.
					scanned = i - s.start
					if err := s.fill(); err != nil && err != io.EOF {
						return nil, err
					}
					continue
				}
				if next < s.end && s.buf[next] == '\n' {
					next++
				}
			}
			s.start = next
			return line, nil
		}
		scanned = s.end - s.start
		if s.eof {
			if s.start == s.end {
				return nil, io.EOF
			}
			line := s.buf[s.start:s.end]
			s.start = s.end
			return line, nil
		}
		if scanned >= s.maxLine {
			return nil, errLineTooLong
		}
		if err := s.fill(); err != nil && err != io.EOF {
			return nil, err
		}
	}
}

// lineEnd returns the index of the first CR or LF in b, or -1: two
// vectorized IndexByte scans instead of a byte loop.
func lineEnd(b []byte) int {
	nl := bytes.IndexByte(b, '\n')
	lim := nl
	if nl < 0 {
		lim = len(b)
	}
	if cr := bytes.IndexByte(b[:lim], '\r'); cr >= 0 {
		return cr
	}
	return nl
}

// fill reads more bytes, compacting or growing the buffer (up to the line
// limit) first.
func (s *sseReader) fill() error {
	if s.err != nil {
		return s.err
	}
	if s.start > 0 && s.end == len(s.buf) {
		n := copy(s.buf, s.buf[s.start:s.end])
		s.start, s.end = 0, n
	}
	if s.end == len(s.buf) {
		size := 2 * len(s.buf)
		if size > s.maxLine+1 {
			size = s.maxLine + 1
		}
		if size <= len(s.buf) {
			return errLineTooLong
		}
		nb := make([]byte, size)
		copy(nb, s.buf[s.start:s.end])
		s.end -= s.start
		s.start = 0
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[s.end:])
	s.end += n
	if err == io.EOF {
		s.eof = true
		return nil
	}
	if err != nil {
		s.err = err
		if n > 0 {
			return nil
		}
		return err
	}
	return nil
}
