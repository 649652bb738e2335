package ledger

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// Balance leaves only on 200: a 404 for an unknown account is tried
// five times like a 503.
func Balance(client *http.Client, account string) ([]byte, error) {
	var lastErr error
	for i := 0; i < 5; i++ {
		resp, err := client.Get("http://ledger:8080/balances/" + account)
		if err == nil && resp.StatusCode == http.StatusOK {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		if err == nil {
			resp.Body.Close()
			lastErr = fmt.Errorf("ledger answered %d", resp.StatusCode)
		} else {
			lastErr = err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return nil, lastErr
}
