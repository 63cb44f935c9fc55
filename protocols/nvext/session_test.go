package nvext_test

import (
	"errors"
	"testing"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/nvext"
)

func TestSessionControlStrict(t *testing.T) {
	var n nvext.NvExt
	if err := jsonx.Unmarshal([]byte(`{"session_control":{"session_id":"s","action":"open","timeout":60}}`), &n); err != nil {
		t.Fatal(err)
	}
	if n.SessionControl == nil || n.SessionControl.SessionID != "s" || n.SessionControl.Timeout.Value() != 60 {
		t.Fatalf("%+v", n.SessionControl)
	}
	for _, body := range []string{
		`{"session_control":{"SESSION_ID":"s"}}`,
		`{"session_control":{"session_id":"s","bogus":1}}`,
	} {
		err := jsonx.Unmarshal([]byte(body), &n)
		if !errors.Is(err, nvext.ErrInvalid) {
			t.Errorf("%s: %v", body, err)
		}
	}
}
