package tfe

import (
	"context"
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	http *retryablehttp.Client
}

// The client is a literal, not `NewClient()`: its fields are what is
// written. 30 retries, 31 attempts per request.
func NewClient(hc *http.Client) *Client {
	client := &Client{}
	client.http = &retryablehttp.Client{
		Backoff:      retryablehttp.LinearJitterBackoff,
		CheckRetry:   retryablehttp.DefaultRetryPolicy,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		HTTPClient:   hc,
		RetryWaitMin: 100 * time.Millisecond,
		RetryWaitMax: 400 * time.Millisecond,
		RetryMax:     30,
	}
	return client
}

func (c *Client) check(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}
