package tfe

import (
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// A literal without `RetryMax`: Go's zero, one attempt (not NewClient's
// default of 4 retries).
func newClient(hc *http.Client) *retryablehttp.Client {
	return &retryablehttp.Client{
		Backoff:      retryablehttp.LinearJitterBackoff,
		CheckRetry:   retryablehttp.DefaultRetryPolicy,
		HTTPClient:   hc,
		RetryWaitMin: 100 * time.Millisecond,
		RetryWaitMax: 400 * time.Millisecond,
	}
}
