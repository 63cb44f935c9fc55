package parsers

import "sync"

// Pool reuses Parsers of one Config across streams (requests), so a serving
// loop allocates nothing per request after warm-up. It is safe for
// concurrent use; the Parsers it hands out are not.
type Pool struct {
	cfg  Config
	pool sync.Pool
}

// NewPool validates cfg (as New does) and returns a Pool for it.
func NewPool(cfg Config) (*Pool, error) {
	p, err := New(cfg)
	if err != nil {
		return nil, err
	}
	pl := &Pool{cfg: cfg}
	pl.pool.Put(p)
	return pl, nil
}

// Get returns a Parser ready for a new stream.
func (pl *Pool) Get() *Parser {
	if p, ok := pl.pool.Get().(*Parser); ok {
		return p
	}
	p, _ := New(pl.cfg) // cfg was validated by NewPool
	return p
}

// Put resets p and returns it to the pool. Events p returned become
// invalid. p must have come from this Pool's Get.
func (pl *Pool) Put(p *Parser) {
	p.Reset()
	pl.pool.Put(p)
}
