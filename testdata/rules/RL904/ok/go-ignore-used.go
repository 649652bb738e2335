package main

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func newClient() *retryablehttp.Client {
	// retrylint: ignore[RL208] the server's Retry-After is trusted here
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.HTTPClient.Timeout = 2 * time.Second
	return c
}
