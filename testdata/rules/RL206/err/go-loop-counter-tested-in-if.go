// Loops with no condition bounded by a counter tested in an `if` that
// leaves: each makes 8 attempts, counted from where the counter starts,
// where it is stepped and whether the test comes before or after the
// call.
package quotes

import (
	"net/http"
	"time"
)

const maxAttempts = 8

var client = &http.Client{Timeout: 2 * time.Second}

// Stepped by the clause after each pass, tested after the call: the
// calls see 1..8.
func Clause(url string) (*http.Response, error) {
	for attempt := 1; ; attempt++ {
		resp, err := client.Get(url)
		if err == nil {
			return resp, nil
		}
		if attempt >= maxAttempts {
			return nil, err
		}
		time.Sleep(time.Second)
	}
}

// Stepped in the body before the test: tries is 1..8 at the tests.
func Body(url string) (*http.Response, error) {
	tries := 0
	for {
		resp, err := client.Get(url)
		tries++
		if err != nil && tries >= maxAttempts {
			return nil, err
		}
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
}

// Tested before the call: the ninth pass stops before calling.
func Before(url string) (*http.Response, error) {
	var last error
	for n := 0; ; n++ {
		if n == maxAttempts {
			return nil, last
		}
		resp, err := client.Get(url)
		if err == nil {
			return resp, nil
		}
		last = err
		time.Sleep(time.Second)
	}
}
