package main

import (
	"net/http"
	"os"
	"strings"
)

func main() {
	sidecar := os.Getenv("DAPR_HTTP_ENDPOINT")
	client := &http.Client{}
	req, err := http.NewRequest("POST", sidecar+"/orders", strings.NewReader(`{"id":1}`))
	if err != nil {
		panic(err)
	}
	// The sidecar sends the request to the app this header names.
	req.Header.Add("dapr-app-id", "orders")
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
}
