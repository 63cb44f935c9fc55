package server

// The limits and helpers the external tests check, which the package
// does not export.
const (
	MaxModelNameBytes = maxModelNameBytes
	MaxSessionIDBytes = maxSessionIDBytes
)

// ParentSessionID is parentSessionID, for the external tests.
func ParentSessionID(r *Job) string { return parentSessionID(r) }
