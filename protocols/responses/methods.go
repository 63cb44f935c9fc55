// Marshal/Unmarshal methods of the object types: modelled members plus Extra,
// with the "type" member of item variants written by Marshal.

package responses

import "github.com/agentwire/agentwire/protocols/internal/wire"

// MarshalJSON writes the modelled members and Extra.
func (v Request) MarshalJSON() ([]byte, error) {
	type plain Request
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Request) UnmarshalJSON(data []byte) error {
	type plain Request
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Reasoning) MarshalJSON() ([]byte, error) {
	type plain Reasoning
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Reasoning) UnmarshalJSON(data []byte) error {
	type plain Reasoning
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v TextConfig) MarshalJSON() ([]byte, error) {
	type plain TextConfig
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *TextConfig) UnmarshalJSON(data []byte) error {
	type plain TextConfig
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v TextFormat) MarshalJSON() ([]byte, error) {
	type plain TextFormat
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *TextFormat) UnmarshalJSON(data []byte) error {
	type plain TextFormat
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Response) MarshalJSON() ([]byte, error) {
	type plain Response
	if v.Output == nil {
		v.Output = []Item{}
	}
	if v.Tools == nil {
		v.Tools = []Tool{}
	}
	if v.Metadata == nil {
		v.Metadata = map[string]string{}
	}
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Response) UnmarshalJSON(data []byte) error {
	type plain Response
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v MessageItem) MarshalJSON() ([]byte, error) {
	type plain MessageItem
	typ := ItemMessage
	if v.ImplicitType {
		typ = ""
	}
	return wire.Marshal(typ, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *MessageItem) UnmarshalJSON(data []byte) error {
	type plain MessageItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v FunctionCallItem) MarshalJSON() ([]byte, error) {
	type plain FunctionCallItem
	return wire.Marshal(ItemFunctionCall, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *FunctionCallItem) UnmarshalJSON(data []byte) error {
	type plain FunctionCallItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v FunctionCallOutputItem) MarshalJSON() ([]byte, error) {
	type plain FunctionCallOutputItem
	return wire.Marshal(ItemFunctionCallOutput, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *FunctionCallOutputItem) UnmarshalJSON(data []byte) error {
	type plain FunctionCallOutputItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ReasoningItem) MarshalJSON() ([]byte, error) {
	type plain ReasoningItem
	if v.Summary == nil {
		v.Summary = []ContentPart{}
	}
	return wire.Marshal(ItemReasoning, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ReasoningItem) UnmarshalJSON(data []byte) error {
	type plain ReasoningItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ItemReferenceItem) MarshalJSON() ([]byte, error) {
	type plain ItemReferenceItem
	return wire.Marshal(ItemReference, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ItemReferenceItem) UnmarshalJSON(data []byte) error {
	type plain ItemReferenceItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v CustomToolCallItem) MarshalJSON() ([]byte, error) {
	type plain CustomToolCallItem
	return wire.Marshal(ItemCustomToolCall, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *CustomToolCallItem) UnmarshalJSON(data []byte) error {
	type plain CustomToolCallItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v CustomToolOutputItem) MarshalJSON() ([]byte, error) {
	type plain CustomToolOutputItem
	return wire.Marshal(ItemCustomToolOutput, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *CustomToolOutputItem) UnmarshalJSON(data []byte) error {
	type plain CustomToolOutputItem
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (p *ContentPart) UnmarshalJSON(data []byte) error {
	type plain ContentPart
	return wire.Decode(data, (*plain)(p), &p.Extra)
}
