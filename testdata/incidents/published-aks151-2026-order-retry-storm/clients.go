// aks151/ai-incident-investigator #8 (August 2026), "Retry storm / traffic
// amplification": the order service retries payment Charge calls
// ORDER_RETRY_ATTEMPTS=3 times with ORDER_RETRY_JITTER=0s against a
// saturated payment pool (503s and timeouts); throughput collapsed 3.5x.
package order

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

type PaymentClient struct {
	http    *http.Client
	baseURL string
}

var errUnavailable = errors.New("payment unavailable")

func (c *PaymentClient) Charge(ctx context.Context, body string) (*http.Response, error) {
	backoff := 200 * time.Millisecond
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/charge", strings.NewReader(body))
		resp, err := c.http.Do(req)
		if err == nil && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil
		}
		if err == nil {
			lastErr = errUnavailable
		} else {
			lastErr = err
		}
		time.Sleep(backoff)
		backoff *= 2
	}
	return nil, lastErr
}
