package main

import (
	"net/http"
	"strings"
)

func main() {
	req, _ := http.NewRequest("POST", "http://localhost:3500/orders", strings.NewReader(`{}`))
	req.Header.Add("dapr-app-id", "orders")
	http.DefaultClient.Do(req)
}
