// Marshal/Unmarshal methods of the object types: modelled members plus Extra,
// with the "type" member of content block variants written by Marshal.

package anthropic

import "github.com/agentwire/agentwire/protocols/internal/wire"

// MarshalJSON writes the modelled members and Extra.
func (v MessagesRequest) MarshalJSON() ([]byte, error) {
	type plain MessagesRequest
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *MessagesRequest) UnmarshalJSON(data []byte) error {
	type plain MessagesRequest
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Message) MarshalJSON() ([]byte, error) {
	type plain Message
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Metadata) MarshalJSON() ([]byte, error) {
	type plain Metadata
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Metadata) UnmarshalJSON(data []byte) error {
	type plain Metadata
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Tool) MarshalJSON() ([]byte, error) {
	type plain Tool
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Tool) UnmarshalJSON(data []byte) error {
	type plain Tool
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ToolChoice) MarshalJSON() ([]byte, error) {
	type plain ToolChoice
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ToolChoice) UnmarshalJSON(data []byte) error {
	type plain ToolChoice
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Thinking) MarshalJSON() ([]byte, error) {
	type plain Thinking
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Thinking) UnmarshalJSON(data []byte) error {
	type plain Thinking
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v CacheControl) MarshalJSON() ([]byte, error) {
	type plain CacheControl
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *CacheControl) UnmarshalJSON(data []byte) error {
	type plain CacheControl
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v TextBlock) MarshalJSON() ([]byte, error) {
	type plain TextBlock
	return wire.Marshal(BlockText, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *TextBlock) UnmarshalJSON(data []byte) error {
	type plain TextBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ImageBlock) MarshalJSON() ([]byte, error) {
	type plain ImageBlock
	return wire.Marshal(BlockImage, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ImageBlock) UnmarshalJSON(data []byte) error {
	type plain ImageBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ImageSource) MarshalJSON() ([]byte, error) {
	type plain ImageSource
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ImageSource) UnmarshalJSON(data []byte) error {
	type plain ImageSource
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ToolUseBlock) MarshalJSON() ([]byte, error) {
	type plain ToolUseBlock
	if len(v.Input) == 0 {
		v.Input = RawJSON("{}")
	}
	return wire.Marshal(BlockToolUse, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ToolUseBlock) UnmarshalJSON(data []byte) error {
	type plain ToolUseBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain ToolResultBlock
	return wire.Marshal(BlockToolResult, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ToolResultBlock) UnmarshalJSON(data []byte) error {
	if err := checkToolResultContent(data); err != nil {
		return err
	}
	type plain ToolResultBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ThinkingBlock) MarshalJSON() ([]byte, error) {
	type plain ThinkingBlock
	return wire.Marshal(BlockThinking, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ThinkingBlock) UnmarshalJSON(data []byte) error {
	type plain ThinkingBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v RedactedThinkingBlock) MarshalJSON() ([]byte, error) {
	type plain RedactedThinkingBlock
	return wire.Marshal(BlockRedactedThinking, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *RedactedThinkingBlock) UnmarshalJSON(data []byte) error {
	type plain RedactedThinkingBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ServerToolUseBlock) MarshalJSON() ([]byte, error) {
	type plain ServerToolUseBlock
	if len(v.Input) == 0 {
		v.Input = RawJSON("{}")
	}
	return wire.Marshal(BlockServerToolUse, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ServerToolUseBlock) UnmarshalJSON(data []byte) error {
	type plain ServerToolUseBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v WebSearchToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain WebSearchToolResultBlock
	return wire.Marshal(BlockWebSearchToolResult, plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *WebSearchToolResultBlock) UnmarshalJSON(data []byte) error {
	type plain WebSearchToolResultBlock
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v CountTokensRequest) MarshalJSON() ([]byte, error) {
	type plain CountTokensRequest
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *CountTokensRequest) UnmarshalJSON(data []byte) error {
	type plain CountTokensRequest
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v ModelInfo) MarshalJSON() ([]byte, error) {
	type plain ModelInfo
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *ModelInfo) UnmarshalJSON(data []byte) error {
	type plain ModelInfo
	return wire.Decode(data, (*plain)(v), &v.Extra)
}
