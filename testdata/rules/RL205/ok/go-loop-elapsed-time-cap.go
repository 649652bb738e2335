package bundle

import (
	"fmt"
	"net/http"
	"time"
)

// Two loops with no count but a clock: each gives up once its time is
// spent, so something caps how long they keep trying.
func Fetch(client *http.Client, url string, limit time.Duration) (*http.Response, error) {
	start := time.Now()
	for {
		resp, err := client.Get(url)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if time.Since(start) > limit {
			return nil, fmt.Errorf("gave up on %s", url)
		}
		time.Sleep(time.Second)
	}
}

func Ping(client *http.Client, url string, limit time.Duration) error {
	begun := time.Now()
	for {
		resp, err := client.Head(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if begun.Add(limit).Before(time.Now()) {
			return err
		}
		time.Sleep(time.Second)
	}
}
