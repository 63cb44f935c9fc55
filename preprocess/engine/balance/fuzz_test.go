package balance

import (
	"testing"
	"time"
)

// FuzzRank: for any session id, upstream count and ejected set, the
// ranking is a prefix of a permutation of the upstreams, healthy ones
// first, the same on every call.
func FuzzRank(f *testing.F) {
	f.Add("99bc91c6-7413-4039-84a7-fc0f5a6a5891", uint8(3), uint64(0), false)
	f.Add("", uint8(8), uint64(5), true)
	f.Add("turn-0123", uint8(64), uint64(1<<63|1), false)
	f.Fuzz(func(t *testing.T, session string, n uint8, ejected uint64, least bool) {
		count := int(n)%MaxUpstreams + 1
		now := time.Unix(1e9, 0)
		ups := make([]Upstream, count)
		for i := range ups {
			ups[i] = Upstream{Name: string(rune('a'+i%26)) + string(rune('0'+i/26)), Engine: &fake{}}
		}
		policy := Affinity
		if least {
			policy = LeastInFlight
		}
		b, err := New(Config{Upstreams: ups, Policy: policy, Attempts: count, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range b.ups {
			if ejected>>(i%64)&1 == 1 {
				u.ejectedUntil = now.Add(time.Second)
			}
		}
		var order, again [MaxUpstreams]uint8
		m := b.rank(session, &order)
		if m != count {
			t.Fatalf("ranked %d of %d", m, count)
		}
		seen := map[uint8]bool{}
		sawEjected := false
		for _, i := range order[:m] {
			if int(i) >= count || seen[i] {
				t.Fatalf("not a permutation: %v", order[:m])
			}
			seen[i] = true
			h := b.ups[i].healthy(now)
			if h && sawEjected {
				t.Fatalf("a healthy upstream after an ejected one: %v", order[:m])
			}
			sawEjected = sawEjected || !h
		}
		if !least && session != "" {
			b.rank(session, &again)
			if again != order {
				t.Fatalf("affinity ranking changed: %v then %v", order[:m], again[:m])
			}
		}
	})
}
