package config

import (
	"bufio"
	"bytes"
	"net/http"
	"strconv"
	"time"
)

var client = &http.Client{Timeout: 2 * time.Second}

// Reads lines until one parses: nothing is sent, so going round at once on
// an error is not a retry of a call.
func FirstNumber(lines []string) (int, error) {
	for i := 0; i < len(lines); i++ {
		n, err := strconv.Atoi(lines[i])
		if err != nil {
			continue
		}
		return n, nil
	}
	return 0, bufio.ErrTooLong
}

// Takes the next event after a failed one: the `continue` goes to the next
// receive, not to the same call again.
func Forward(events <-chan []byte, quit <-chan struct{}) {
	for {
		select {
		case <-quit:
			return
		case e := <-events:
			resp, err := client.Post("http://sink/events", "application/json", bytes.NewReader(e))
			if err != nil {
				continue
			}
			resp.Body.Close()
		}
	}
}

// Waits through a backoff object the loop condition asks.
func Fetch(b *Backoff) (*http.Response, error) {
	for b.Ongoing() {
		resp, err := client.Get("http://config/current")
		if err != nil {
			b.Wait()
			continue
		}
		return resp, nil
	}
	return nil, b.Err()
}

// Waits through a backoff object in a counted loop.
func FetchCounted(b *Backoff) (*http.Response, error) {
	for i := 0; i < 5; i++ {
		resp, err := client.Get("http://config/current")
		if err != nil {
			b.Wait()
			continue
		}
		return resp, nil
	}
	return nil, b.Err()
}
