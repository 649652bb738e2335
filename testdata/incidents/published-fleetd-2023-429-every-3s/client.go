// fleetdm/fleet issue #14757 (October 2023): fleetd retried a failed
// device API call every 3 s, up to 4 attempts, and took a 429 ("limit
// exceeded, retry after: 0s") as one more error to retry; more than one
// customer saw a rise in 429s. The status test's shape is this
// reconstruction's.
package service

import (
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 10 * time.Second}

func DesktopURL(url string) (*http.Response, error) {
	var last error
	for attempt := 1; attempt <= 4; attempt++ {
		resp, err := client.Get(url)
		if err != nil {
			last = err
			time.Sleep(3 * time.Second)
			continue
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(3 * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, last
}
