// The ledger program.
package main

import (
	"net/http"
	"time"
)

func main() {
	client := &http.Client{Timeout: time.Second}
	_, _ = client.Post("http://audit:8080/entries", "application/json", nil)
}
