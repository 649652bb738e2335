package dns

import (
	"fmt"
	"time"
)

// Polls until a deadline (cert-manager's pkg/issuer/acme/dns/util/wait.go
// has this shape): the `case <-timeup` ends it.
func WaitFor(timeout, interval time.Duration, f func() (bool, error)) error {
	var lastErr string
	timeup := time.After(timeout)
	for {
		select {
		case <-timeup:
			return fmt.Errorf("time limit exceeded: %s", lastErr)
		default:
		}
		stop, err := f()
		if stop {
			return nil
		}
		if err != nil {
			lastErr = err.Error()
		}
		time.Sleep(interval)
	}
}
