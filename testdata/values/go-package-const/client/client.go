package client

import (
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

func New() *http.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = maxRetries
	c.RetryWaitMin = waitMin
	c.RetryWaitMax = waitMax
	return c.StandardClient()
}
