package middleware

import (
	"fmt"
	"net/http"

	"github.com/cenkalti/backoff/v4"
)

// The operation fails only with an error of its own making, once the
// response writer (which passes through every status it is not told to
// retry) has not written to the client: what goes round is decided by the
// writer's status list, not known here; no error of the backend is
// returned as it is.
func (r *retrier) ServeHTTP(rw http.ResponseWriter, req *http.Request) {
	attempts := 1
	operation := func() error {
		if attempts == r.attempts {
			r.next.ServeHTTP(rw, req)
			return nil
		}
		w := newWriter(rw, r.statuses)
		r.next.ServeHTTP(w, req)
		if w.written {
			return nil
		}
		attempts++
		return fmt.Errorf("attempt %d failed", attempts-1)
	}
	_ = backoff.Retry(operation, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}
