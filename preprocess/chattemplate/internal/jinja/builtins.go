package jinja

// Global functions (patch: rewritten): jinja2's range (the sandbox's
// safe_range), dict, namespace, cycler, joiner and lipsum, and transformers'
// raise_exception and strftime_now.

import (
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// globals holds the global functions every render sees.
var globals = map[string]Value{
	"range":           newFunc("range", builtinRange),
	"dict":            newFunc("dict", builtinDict),
	"namespace":       newFunc("namespace", builtinNamespace),
	"cycler":          newFunc("cycler", builtinCycler),
	"joiner":          newFunc("joiner", builtinJoiner),
	"lipsum":          newFunc("lipsum", builtinLipsum),
	"raise_exception": newFunc("raise_exception", builtinRaiseException),
	"strftime_now":    newFunc("strftime_now", builtinStrftimeNow),
}

// maxRange is the sandbox's MAX_RANGE: a larger range is an OverflowError.
const maxRange = 100000

// builtinRange is the sandbox's safe_range(*args): range(stop),
// range(start, stop[, step]) of integers, at most maxRange items.
func builtinRange(args []Value, kw kwargs) (Value, error) {
	if len(kw) > 0 {
		return Undefined(), typeError("range() takes no keyword arguments")
	}
	if len(args) < 1 || len(args) > 3 {
		return Undefined(), typeError("range expected at most 3 arguments")
	}
	var n [3]int64
	for i, a := range args {
		x, err := needIntArg(a)
		if err != nil {
			return Undefined(), err
		}
		n[i] = x
	}
	start, stop, step := int64(0), n[0], int64(1)
	if len(args) > 1 {
		start, stop = n[0], n[1]
	}
	if len(args) > 2 {
		step = n[2]
	}
	if step == 0 {
		return Undefined(), valueError("range() arg 3 must not be zero")
	}
	var count int64
	switch {
	case step > 0 && stop > start:
		count = (stop-start-1)/step + 1
	case step < 0 && start > stop:
		count = (start-stop-1)/(-step) + 1
	}
	if count > maxRange {
		return Undefined(), pyErr("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).")
	}
	items := make([]Value, count)
	for i := range items {
		items[i] = NewInt(start + int64(i)*step)
	}
	return Value{kind: KindList, v: &List{Items: items, seq: seqRange, rng: [3]int64{start, stop, step}}}, nil
}

// dictFrom is dict(*args, **kwargs): a mapping or iterable of pairs, then
// the keyword arguments in order.
func dictFrom(name string, args []Value, kw kwargs) (*Dict, error) {
	if len(args) > 1 {
		return nil, typeError(name + " expected at most 1 argument, got " + pyStr(NewInt(int64(len(args)))))
	}
	d := &Dict{Data: make(map[string]Value, len(kw))}
	if len(args) == 1 {
		src := args[0]
		switch {
		case src.kind == KindDict:
			d = copyDict(src.AsDict())
		default:
			pairs, err := iterate(src)
			if err != nil {
				return nil, err
			}
			for i, p := range pairs {
				kv, err := iterate(p)
				if err != nil {
					return nil, typeError("cannot convert dictionary update sequence element #" + pyStr(NewInt(int64(i))) + " to a sequence")
				}
				if len(kv) != 2 {
					return nil, valueError("dictionary update sequence element #" + pyStr(NewInt(int64(i))) + " has length " + pyStr(NewInt(int64(len(kv)))) + "; 2 is required")
				}
				if err := d.setKey(kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, p := range kw {
		d.Set(p.name, p.val)
	}
	return d, nil
}

func builtinDict(args []Value, kw kwargs) (Value, error) {
	d, err := dictFrom("dict", args, kw)
	if err != nil {
		return Undefined(), err
	}
	return Value{kind: KindDict, v: d}, nil
}

func builtinNamespace(args []Value, kw kwargs) (Value, error) {
	d, err := dictFrom("dict", args, kw)
	if err != nil {
		return Undefined(), err
	}
	return newObject(&namespace{d: d}), nil
}

func builtinCycler(args []Value, kw kwargs) (Value, error) {
	if len(kw) > 0 {
		return Undefined(), typeError("Cycler.__init__() got an unexpected keyword argument '" + kw[0].name + "'")
	}
	if len(args) == 0 {
		return Undefined(), pyErr("RuntimeError", "at least one item has to be provided")
	}
	return newObject(&cycler{items: append([]Value(nil), args...)}), nil
}

var (
	joinerNames    = []string{"sep"}
	joinerDefaults = []Value{NewString(", ")}
)

func builtinJoiner(args []Value, kw kwargs) (Value, error) {
	p, err := bindParams("Joiner.__init__", args, kw, joinerNames, 0, joinerDefaults)
	if err != nil {
		return Undefined(), err
	}
	return newObject(&joiner{sep: pyStr(p[0])}), nil
}

func builtinRaiseException(args []Value, kw kwargs) (Value, error) {
	if len(args) != 1 || len(kw) > 0 {
		return Undefined(), typeError("raise_exception() takes 1 positional argument")
	}
	return Undefined(), &RaiseError{Message: pyStr(args[0])}
}

func builtinStrftimeNow(args []Value, kw kwargs) (Value, error) {
	if len(args) != 1 || len(kw) > 0 || !args[0].IsString() {
		return Undefined(), typeError("strftime_now() takes one format string")
	}
	return NewString(Strftime(time.Now(), args[0].AsString())), nil
}

var (
	lipsumNames    = []string{"n", "html", "min", "max"}
	lipsumDefaults = []Value{NewInt(5), NewBool(true), NewInt(20), NewInt(100)}
	lipsumWords    = strings.Fields(`a ac accumsan ad adipiscing aenean aliquam aliquet amet ante aptent arcu at
auctor augue bibendum blandit class commodo condimentum congue consectetuer consequat conubia convallis
cras cubilia cum curabitur curae cursus dapibus diam dictum dictumst dignissim dis dolor donec dui duis
egestas eget eleifend elementum elit enim erat eros est et etiam eu euismod facilisi facilisis fames
faucibus felis fermentum feugiat fringilla fusce gravida habitant habitasse hac hendrerit hymenaeos
iaculis id imperdiet in inceptos integer interdum ipsum justo lacinia lacus laoreet lectus leo libero
ligula litora lobortis lorem luctus maecenas magna magnis malesuada massa mattis mauris metus mi
molestie mollis montes morbi mus nam nascetur natoque nec neque netus nibh nisi nisl non nonummy nostra
nulla nullam nunc odio orci ornare parturient pede pellentesque penatibus per pharetra phasellus
placerat platea porta porttitor posuere potenti praesent pretium primis proin pulvinar purus quam quis
quisque rhoncus ridiculus risus rutrum sagittis sapien scelerisque sed sem semper senectus sit
sociis sociosqu sodales sollicitudin suscipit suspendisse taciti tellus tempor tempus tincidunt
torquent tortor tristique turpis ullamcorper ultrices ultricies urna ut varius vehicula vel velit
venenatis vestibulum vitae vivamus viverra volutpat vulputate`)
)

// builtinLipsum is jinja2's lipsum(n, html, min, max): random lorem ipsum
// paragraphs (random, so never equal to Python's).
func builtinLipsum(args []Value, kw kwargs) (Value, error) {
	p, err := bindParams("generate_lorem_ipsum", args, kw, lipsumNames, 0, lipsumDefaults)
	if err != nil {
		return Undefined(), err
	}
	var n [3]int64
	for i, v := range []Value{p[0], p[2], p[3]} {
		if n[i], err = needIntArg(v); err != nil {
			return Undefined(), err
		}
	}
	count, lo, hi := min(n[0], 1000), n[1], n[2]
	if hi <= lo {
		return Undefined(), valueError("empty range for randrange()")
	}
	hi = min(hi, lo+10000)
	var result []string
	for i := int64(0); i < count; i++ {
		var words []string
		last := ""
		nextCap := true
		lastComma, lastStop := 0, 0
		for idx := 0; idx < int(lo+rand.Int64N(hi-lo)); idx++ {
			w := last
			for w == last {
				w = lipsumWords[rand.IntN(len(lipsumWords))]
			}
			last = w
			if nextCap {
				w = pyCapitalize(w)
				nextCap = false
			}
			if idx-(3+rand.IntN(5)) > lastComma {
				lastComma = idx
				lastStop += 2
				w += ","
			}
			if idx-(10+rand.IntN(10)) > lastStop {
				lastComma, lastStop = idx, idx
				w += "."
				nextCap = true
			}
			words = append(words, w)
		}
		s := strings.Join(words, " ")
		if strings.HasSuffix(s, ",") {
			s = s[:len(s)-1] + "."
		} else if !strings.HasSuffix(s, ".") {
			s += "."
		}
		result = append(result, s)
	}
	if !p[1].IsTruthy() {
		return NewString(strings.Join(result, "\n\n")), nil
	}
	for i, r := range result {
		result[i] = "<p>" + htmlEscape(r) + "</p>"
	}
	return newMarkup(strings.Join(result, "\n")), nil
}

// bufPool pools scratch byte buffers.
type bufPool struct{ p sync.Pool }

func newBufPool() *bufPool {
	return &bufPool{p: sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}}
}

func (bp *bufPool) get() *[]byte { return bp.p.Get().(*[]byte) }

// put returns the buffer (grown to b) unless it grew beyond 1 MB.
func (bp *bufPool) put(p *[]byte, b []byte) {
	if cap(b) <= 1<<20 {
		*p = b[:0]
		bp.p.Put(p)
	}
}

func stripQuotes(s string) string { return strings.Trim(s, "'") }
