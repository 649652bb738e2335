// A Go loop that sends a request again whenever it times out, with nothing
// limiting the retries as a whole: when the service slows down, every
// client's timed-out requests come back (issue 28, GitHub 2023).
package quotes

import (
	"errors"
	"net"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 2 * time.Second}

func Quote(url string) (*http.Response, error) {
	var last error
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := client.Get(url)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				last = err
				time.Sleep(200 * time.Millisecond)
				continue
			}
			return nil, err
		}
		return resp, nil
	}
	return nil, last
}
