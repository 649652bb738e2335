// Eight attempts of a Go loop, above the threshold of 5.
package quotes

import (
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 2 * time.Second}

func Quote(url string) (*http.Response, error) {
	var last error
	for attempt := 0; attempt < 8; attempt++ {
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
