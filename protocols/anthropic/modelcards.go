package anthropic

import (
	"net/url"
	"strconv"
	"time"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// ModelOf returns the Anthropic model object for card.
func ModelOf(card protocols.ModelCard) ModelInfo {
	m := ModelInfo{ID: card.ID, DisplayName: card.DisplayName, Type: "model",
		CreatedAt: card.Created.UTC().Format(time.RFC3339)}
	if m.DisplayName == "" {
		m.DisplayName = card.ID
	}
	if card.Created.IsZero() {
		m.CreatedAt = time.Unix(0, 0).UTC().Format(time.RFC3339)
	}
	if card.ContextWindow > 0 {
		m.MaxInputTokens = protocols.Some(card.ContextWindow)
	}
	if card.MaxOutputTokens > 0 {
		m.MaxTokens = protocols.Some(card.MaxOutputTokens)
	}
	return m
}

// ListQuery is the pagination of GET /v1/models (limit, after_id,
// before_id).
type ListQuery struct {
	Limit    int // 1–1000; 0 means 20
	AfterID  string
	BeforeID string
}

// ParseListQuery reads limit, after_id and before_id; a bad limit is a 400.
func ParseListQuery(q url.Values) (ListQuery, error) {
	l := ListQuery{AfterID: q.Get("after_id"), BeforeID: q.Get("before_id")}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			return l, NewAPIError(400, "limit: Input should be between 1 and 1000")
		}
		l.Limit = n
	}
	return l, nil
}

// ModelsOf returns one page of the GET /v1/models list for cards (in their
// order): after AfterID or before BeforeID, at most Limit models, with
// has_more, first_id and last_id (null for an empty page).
func ModelsOf(cards []protocols.ModelCard, q ListQuery) ModelList {
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	start, end := 0, len(cards)
	for i, c := range cards {
		if q.AfterID != "" && c.ID == q.AfterID {
			start = i + 1
		}
		if q.BeforeID != "" && c.ID == q.BeforeID {
			end = i
		}
	}
	if start > end {
		start = end
	}
	page := cards[start:end]
	hasMore := len(page) > limit
	if hasMore {
		if q.BeforeID != "" && q.AfterID == "" {
			page = page[len(page)-limit:] // the models just before before_id
		} else {
			page = page[:limit]
		}
	}
	l := ModelList{Data: make([]ModelInfo, len(page)), HasMore: hasMore,
		FirstID: protocols.Null[string](), LastID: protocols.Null[string]()}
	for i, c := range page {
		l.Data[i] = ModelOf(c)
	}
	if len(page) > 0 {
		l.FirstID = protocols.Some(page[0].ID)
		l.LastID = protocols.Some(page[len(page)-1].ID)
	}
	return l
}

// ModelsBody returns the JSON body of GET /v1/models:
// {"data":[…],"has_more","first_id","last_id"}.
func ModelsBody(cards []protocols.ModelCard, q ListQuery) []byte {
	b, _ := jsonx.Marshal(ModelsOf(cards, q)) // strings and numbers only
	return b
}

// ModelBody returns the JSON body of GET /v1/models/{id} for card; answer
// an unknown id with ErrorBody(&protocols.Error{Kind: protocols.ErrorNotFound, Model: id}).
func ModelBody(card protocols.ModelCard) []byte {
	b, _ := jsonx.Marshal(ModelOf(card))
	return b
}
