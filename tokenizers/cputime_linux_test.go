package tokenizers

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used (the caller
// locks its goroutine to the thread). On a shared machine it measures the
// encoder's own work, not the time it waited for a core.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
