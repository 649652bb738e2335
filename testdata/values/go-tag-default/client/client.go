package client

import (
	"net/http"

	"example.com/svc/config"
	"github.com/hashicorp/go-retryablehttp"
)

func New(cfg config.Config) *http.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = cfg.RetryMax
	c.RetryWaitMin = cfg.RetryWait
	return c.StandardClient()
}
