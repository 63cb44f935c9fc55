//go:build !linux

package tokenizers

import "time"

// threadCPU is not available outside Linux.
func threadCPU() (time.Duration, bool) { return 0, false }
