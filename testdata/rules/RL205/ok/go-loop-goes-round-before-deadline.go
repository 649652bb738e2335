// The loop goes round only while the clock is before the check's
// deadline, then reports and returns (linkerd2 b24cd40
// `pkg/healthcheck/healthcheck.go` `runCheck`): the time it keeps trying
// is capped.
package healthcheck

import (
	"context"
	"time"
)

func (hc *HealthChecker) runCheck(c *Checker, observer func(error)) bool {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
		err := c.check(ctx)
		cancel()
		if err != nil && time.Now().Before(c.retryDeadline) {
			observer(err)
			time.Sleep(retryWindow)
			continue
		}
		observer(err)
		return err == nil
	}
}
