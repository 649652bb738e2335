package orders

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// DefaultBackoff (the default): 1 s, 2 s, 4 s ... up to 30 s, no jitter.
func NewClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.HTTPClient.Timeout = 5 * time.Second
	return c
}
