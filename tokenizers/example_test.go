package tokenizers_test

import (
	"fmt"
	"log"

	"github.com/agentwire/agentwire/tokenizers"
)

func ExampleLoadFile() {
	tok, err := tokenizers.LoadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	ids, _ := tok.Encode("<|im_start|>Hello world", false)
	fmt.Println(ids)
	text, _ := tok.Decode(ids, true)
	fmt.Printf("%q\n", text)
	// Output:
	// [296 280 269 279]
	// "Hello world"
}

func ExampleBPE_EncodeSegments() {
	tok, err := tokenizers.LoadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	// The user's text may not inject control tokens.
	ids, _ := tok.EncodeSegments([]tokenizers.Segment{
		{Text: "<|im_start|>", AllowSpecial: true},
		{Text: "<|im_end|>", AllowSpecial: false},
	}, false)
	fmt.Println(len(ids), ids[0])
	// Output:
	// 11 296
}

func ExampleDecodeStream() {
	tok, err := tokenizers.LoadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	ids, _ := tok.Encode("你好 é!", false)
	s := tokenizers.NewDecodeStream(tok, tokenizers.DecodeStreamConfig{SkipSpecialTokens: true})
	for _, id := range ids {
		text, err := s.Step(id)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d → %q\n", id, text)
	}
	text, _ := s.Finish()
	fmt.Printf("finish → %q\n", text)
	// Output:
	// 295 → "你好"
	// 32 → " "
	// 195 → ""
	// 169 → "é"
	// 33 → "!"
	// finish → ""
}

func ExampleStopDecoder() {
	tok, err := tokenizers.LoadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	ids, _ := tok.Encode("Thought: search\nObservation: 42", false)
	d, err := tokenizers.NewStopDecoder(tokenizers.NewDecodeStream(tok, tokenizers.DecodeStreamConfig{SkipSpecialTokens: true}),
		tokenizers.StopConfig{StopStrings: []string{"\nObservation:"}})
	if err != nil {
		log.Fatal(err)
	}
	var out []byte
	for _, id := range ids {
		text, stopped, err := d.Step(id)
		if err != nil {
			log.Fatal(err)
		}
		out = append(out, text...)
		if stopped {
			break
		}
	}
	fmt.Printf("%q %v\n", out, d.Reason().Kind)
	// Output:
	// "Thought: search" StopHiddenString
}

func ExampleBPE_EncodeBatch() {
	tok, err := tokenizers.LoadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	// Many texts at once, on all cores; out[i] holds Encode(texts[i]).
	out, err := tok.EncodeBatch([]string{"Hello world", "<|im_start|>Hello"}, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output:
	// [[280 269 279] [296 280 269]]
}

func ExampleBPE_AppendEncode() {
	tok, err := tokenizers.LoadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	// A reused buffer: no allocation once it has room.
	buf := make([]uint32, 0, 64)
	for _, s := range []string{"Hello", "Hello world"} {
		buf = tok.AppendEncode(buf[:0], s, false)
		fmt.Println(buf)
	}
	// Output:
	// [280 269]
	// [280 269 279]
}
