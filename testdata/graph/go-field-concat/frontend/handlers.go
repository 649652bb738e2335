// The frontend's handlers: each asks another service.
package main

import (
	"fmt"
	"net/http"
)

func (fe *frontendServer) assistantHandler(w http.ResponseWriter, r *http.Request) {
	url := "http://" + fe.assistantAddr
	req, err := http.NewRequest(http.MethodPost, url, r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
}

func (fe *frontendServer) quoteHandler(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get(fmt.Sprintf("http://%s/quote", fe.quoteAddr))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
}
