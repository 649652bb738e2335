package main

import (
	"net/http"
	"os"
)

func main() {
	webHost := os.Getenv("WEB_HOST")
	resp, err := http.Get("http://" + webHost + "/api/list")
	if err == nil {
		resp.Body.Close()
	}
}
