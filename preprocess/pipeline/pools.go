package pipeline

import (
	"hash/fnv"
	"strconv"
	"sync"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess"
)

// maxPools bounds the parser pools kept across requests (one per distinct
// parser configuration: names, flags and declared tools). Past it, a new
// configuration still gets a pool, which is not kept.
const maxPools = 512

var poolCache = struct {
	sync.Mutex
	m map[string]*parsers.Pool
}{m: map[string]*parsers.Pool{}}

// poolsFor returns the parser pools of a request: [0] for its parser
// configuration, [1] for the PRE.4 bare-JSON variant (the same tool parser
// without reasoning) when shape detection is on.
func poolsFor(prep *preprocess.Prepared) ([2]*parsers.Pool, error) {
	var out [2]*parsers.Pool
	var err error
	if out[0], err = poolFor(prep.Parsers); err != nil {
		return out, err
	}
	if prep.Response.ShapeDetect {
		alt := prep.Parsers
		alt.ReasoningParser, alt.InReasoning = "", false
		if out[1], err = poolFor(alt); err != nil {
			out[1] = nil // a framing grammar has no reasoning-free variant
		}
	}
	return out, nil
}

func poolFor(cfg parsers.Config) (*parsers.Pool, error) {
	key := configKey(&cfg)
	poolCache.Lock()
	pl := poolCache.m[key]
	poolCache.Unlock()
	if pl != nil {
		return pl, nil
	}
	pl, err := parsers.NewPool(cfg)
	if err != nil {
		return nil, err
	}
	poolCache.Lock()
	if old := poolCache.m[key]; old != nil {
		pl = old
	} else if len(poolCache.m) < maxPools {
		poolCache.m[key] = pl
	}
	poolCache.Unlock()
	return pl, nil
}

// configKey identifies a parser configuration: names, flags and a hash of
// the declared tools (name and schema bytes).
func configKey(cfg *parsers.Config) string {
	h := fnv.New64a()
	for _, t := range cfg.Tools {
		h.Write([]byte(t.Name))
		h.Write([]byte{0})
		h.Write(t.Parameters)
		h.Write([]byte{0})
	}
	b := make([]byte, 0, 96)
	b = append(b, cfg.ToolParser...)
	b = append(b, '|')
	b = append(b, cfg.ReasoningParser...)
	b = append(b, '|')
	b = strconv.AppendBool(b, cfg.InReasoning)
	b = append(b, '|')
	b = strconv.AppendBool(b, cfg.WholeCalls)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(cfg.MaxCallBuffer), 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(len(cfg.Tools)), 10)
	b = append(b, '|')
	b = strconv.AppendUint(b, h.Sum64(), 16)
	return string(b)
}
