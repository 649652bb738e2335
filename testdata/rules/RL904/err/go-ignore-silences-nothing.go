package main

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func newClient() *retryablehttp.Client {
	// retrylint: ignore[RL205] nothing here retries for ever
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 2 * time.Second
	return c
}
