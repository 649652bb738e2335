package billing

import (
	"math/rand"
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
		wait := min(time.Duration(secs)*time.Second, 30*time.Second)
		time.Sleep(wait + time.Duration(rand.Int63n(int64(wait/2)+1)))
	}
	return nil, err
}
