package orders

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// LinearJitterBackoff does not take the server's wait.
func NewClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 5 * time.Second
	return c
}
