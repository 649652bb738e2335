// The orders program.
package main

import (
	"net/http"
	"time"
)

func main() {
	client := &http.Client{Timeout: time.Second}
	_, _ = client.Post("http://payments:8080/pay", "application/json", nil)
}
