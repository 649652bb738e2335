package agent

import (
	"context"
	"time"
)

// A signal loop: each pass takes the next event. A drain's error is only
// logged and the loop goes round whether it failed or not; the one wait
// (`<-time.After`) is on the shutdown branch, which then leaves. No call
// is tried again because it failed: not a retry.
func run(ctx context.Context, shutdown context.Context, signals <-chan struct{}, proxy Proxy, grace time.Duration) {
	stopped := make(chan struct{})
	go func() {
		var draining bool
		for {
			select {
			case _, ok := <-signals:
				if !ok {
					signals = nil
					continue
				}
				if !draining {
					if err := proxy.Drain(); err != nil {
						logger.Error(err, "could not drain")
					}
				}
				draining = true
				continue
			case <-shutdown.Done():
				if err := proxy.FailHealthchecks(); err != nil {
					logger.Error(err, "could not fail health checks")
				} else {
					select {
					case <-time.After(grace):
					case <-ctx.Done():
					}
				}
			}
			close(stopped)
			return
		}
	}()
	<-stopped
}
