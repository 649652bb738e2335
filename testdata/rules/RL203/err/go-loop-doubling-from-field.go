package transport

import (
	"net/http"
	"time"
)

const maxWait = 10 * time.Second

type retrying struct {
	next    http.RoundTripper
	retries int
	wait    time.Duration
}

// The wait starts at a field (not known here) and doubles each pass up to
// `maxWait`: a growing backoff without jitter, not a fixed `10s`.
func (t *retrying) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	wait := t.wait
	for i := 0; i <= t.retries; i++ {
		resp, err = t.next.RoundTrip(req)
		if i < t.retries && (err != nil || resp.StatusCode >= 500) {
			if wait > maxWait {
				wait = maxWait
			}
			time.Sleep(wait)
			wait *= 2
			continue
		}
		break
	}
	return resp, err
}
