package orders

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// DefaultBackoff (the default) returns the server's Retry-After as it is
// on a 429 or 503: no cap, no jitter.
func NewClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.HTTPClient.Timeout = 5 * time.Second
	return c
}
