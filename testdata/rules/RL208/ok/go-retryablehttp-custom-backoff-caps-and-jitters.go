package orders

import (
	"math/rand"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// The server's Retry-After is waited (DefaultBackoff reads it), capped at
// RetryWaitMax and spread by up to half of it.
func NewClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.Backoff = func(min, max time.Duration, n int, resp *http.Response) time.Duration {
		wait := retryablehttp.DefaultBackoff(min, max, n, resp)
		if wait > max {
			wait = max
		}
		return wait + time.Duration(rand.Int63n(int64(wait/2)+1))
	}
	c.HTTPClient.Timeout = 5 * time.Second
	return c
}
