package main

import (
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
)

func main() {
	client := &http.Client{Timeout: 2 * time.Second}
	_ = retry.Do(func() error {
		_, err := client.Get("http://payments:8080/pay")
		return err
	}, retry.Attempts(3))
}
