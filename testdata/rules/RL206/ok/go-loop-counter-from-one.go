// A counter that starts at 1 (`attempt := 1; attempt <= 5`): five
// attempts, not six (issue 28: fleetd #14757's loop was read with one
// attempt too many).
package quotes

import (
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 2 * time.Second}

func Quote(url string) (*http.Response, error) {
	var last error
	for attempt := 1; attempt <= 5; attempt++ {
		resp, err := client.Get(url)
		if err != nil {
			last = err
			time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
			continue
		}
		return resp, nil
	}
	return nil, last
}
