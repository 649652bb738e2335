package bundle

import (
	"fmt"
	"net/http"
	"time"
)

// Fetch leaves on a 200 in the last `else` of an error chain; every other
// answer, a 404 included, goes round until the deadline gives up. The
// `break` under the `else` of `if err != nil` is the success exit, and the
// `return fmt.Errorf(..)` is the deadline, not the loop's only exit.
func Fetch(client *http.Client, url string, limit time.Duration) (*http.Response, error) {
	wait := 100 * time.Millisecond
	start := time.Now()
	var resp *http.Response
	var err error
	for {
		resp, err = client.Get(url)
		var why string
		if err != nil {
			why = err.Error()
		} else if resp.StatusCode != http.StatusOK {
			why = fmt.Sprintf("status %d", resp.StatusCode)
		} else {
			break
		}
		if time.Since(start) > limit {
			return nil, fmt.Errorf("gave up fetching %s: %s", url, why)
		}
		time.Sleep(wait)
		wait *= 2
	}
	return resp, nil
}
