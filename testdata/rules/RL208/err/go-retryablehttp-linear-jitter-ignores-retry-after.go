package billing

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// LinearJitterBackoff never reads Retry-After: a 429 or 503 (retried by
// the default CheckRetry) is tried again on the client's own schedule.
func newClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.RetryWaitMin = 500 * time.Millisecond
	c.RetryWaitMax = 5 * time.Second
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 5 * time.Second
	return c
}
