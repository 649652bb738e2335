package billing

import (
	"net/http"
	"strconv"
	"time"
)

func fetch(url string) (*http.Response, error) {
	client := &http.Client{Timeout: 5 * time.Second}
	var err error
	for i := 0; i < 5; i++ {
		resp, err := client.Get(url)
		if err == nil && resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(secs) * time.Second)
	}
	return nil, err
}
