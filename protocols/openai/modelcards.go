package openai

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// ModelOf returns the OpenAI model object for card.
func ModelOf(card protocols.ModelCard) Model {
	m := Model{ID: card.ID, Object: "model", Created: card.Created.Unix(), OwnedBy: card.OwnedBy}
	if card.Created.IsZero() {
		m.Created = 0
	}
	if m.OwnedBy == "" {
		m.OwnedBy = "agentwire"
	}
	if card.ContextWindow > 0 {
		m.ContextWindow = protocols.Some(card.ContextWindow)
	}
	if card.MaxOutputTokens > 0 {
		m.MaxOutputTokens = protocols.Some(card.MaxOutputTokens)
	}
	return m
}

// ModelsOf returns the GET /v1/models list for cards, in their order.
func ModelsOf(cards []protocols.ModelCard) ModelList {
	l := ModelList{Object: "list", Data: make([]Model, len(cards))}
	for i, c := range cards {
		l.Data[i] = ModelOf(c)
	}
	return l
}

// ModelsBody returns the JSON body of GET /v1/models:
// {"object":"list","data":[{"id","object":"model","created","owned_by",…}]}.
func ModelsBody(cards []protocols.ModelCard) []byte {
	b, _ := jsonx.Marshal(ModelsOf(cards)) // strings and numbers only
	return b
}

// ModelBody returns the JSON body of GET /v1/models/{id} for card; answer
// an unknown id with ErrorBody(&protocols.Error{Kind: protocols.ErrorNotFound, Model: id}).
func ModelBody(card protocols.ModelCard) []byte {
	b, _ := jsonx.Marshal(ModelOf(card))
	return b
}
