package main

import (
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("POST", "http://localhost:3500/orders", strings.NewReader(`{}`))
	if err != nil {
		panic(err)
	}
	req.Header.Add("dapr-app-id", "orders")
	if _, err := http.DefaultClient.Do(req); err != nil {
		panic(err)
	}
}
