package preprocess

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/agentwire/agentwire/preprocess/chattemplate"
)

// thinkingModes are the values a request's normalisation gives the
// thinking_mode template argument: Anthropic's thinking.type (Anthropic
// Messages, and Chat Completions' thinking object). MiniMax M3's
// templates read them; DeepSeek V4.1's raises on anything but its own
// "chat" and "thinking".
var thinkingModes = []string{"enabled", "disabled", "adaptive"}

// probeThinkingModes renders the effort probe's conversation once per
// value of thinkingModes and returns the values the template raises on
// (nil when the template fails without the argument too: the probe then
// learns nothing).
func probeThinkingModes(t *chattemplate.Template) []string {
	render := func(kwargs string) bool {
		in := chattemplate.Input{Messages: json.RawMessage(effortProbe), AddGenerationPrompt: true,
			BOSToken: "<s>", EOSToken: "</s>"}
		if kwargs != "" {
			in.Kwargs = json.RawMessage(kwargs)
		}
		_, err := t.Render(in)
		return err == nil
	}
	if !render("") {
		return nil
	}
	var rejected []string
	for _, v := range thinkingModes {
		if !render(`{"thinking_mode":"` + v + `"}`) {
			rejected = append(rejected, v)
		}
	}
	return rejected
}

// clampThinkingMode leaves out a thinking_mode argument the template
// raises on (Template.RejectedThinkingModes), so that a client's thinking
// switch is never answered with a 400. The switch it carried stays as
// enable_thinking (true unless the mode is "disabled"), unless the request
// set that already: DeepSeek V4.1's template derives its mode from
// enable_thinking. The reasoning gate (PRE.2) reads the arguments after
// the clamp.
func clampThinkingMode(t *Template, args templateArgs) {
	if len(t.RejectedThinkingModes) == 0 {
		return
	}
	v, ok := args.String("thinking_mode")
	if !ok || !slices.Contains(t.RejectedThinkingModes, v) {
		return
	}
	delete(args, "thinking_mode")
	if _, set := args["enable_thinking"]; !set {
		args["enable_thinking"] = json.RawMessage(strconv.FormatBool(v != "disabled"))
	}
}
