// Package protocols holds the wire types of the APIs agent harnesses speak
// (OpenAI Chat Completions, Completions, Responses, Anthropic Messages), the
// translators between them and the zero-allocation stream emitters.
package protocols
