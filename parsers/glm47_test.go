package parsers

import "testing"

// FuzzGLM47 runs glm47 through paramFuzz (behind glm45), seeded from its
// fixtures.
func FuzzGLM47(f *testing.F) { paramFuzz(f, "glm47", "glm45", "glm47") }
