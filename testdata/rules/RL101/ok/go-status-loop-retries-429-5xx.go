package ledger

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// Balance retries connection errors, 429 and 5xx; any other status is
// returned at once.
func Balance(client *http.Client, account string) ([]byte, error) {
	var lastErr error
	for i := 0; i < 5; i++ {
		resp, err := client.Get("http://ledger:8080/balances/" + account)
		if err != nil {
			lastErr = err
			time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
			continue
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			resp.Body.Close()
			lastErr = fmt.Errorf("ledger answered %d", resp.StatusCode)
			time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, lastErr
}
