// The agency program: its callee's address is a package variable with a
// local default, replaced in init when the environment sets it.
package main

import (
	"net/http"
	"os"
)

var (
	ratesService = "http://localhost:8092"
	label        = "agency"
)

func setup() {
	rs := os.Getenv("RATES_SERVICE")
	if rs != "" {
		ratesService = rs
	}
	if l := os.Getenv("LABEL"); l != "" {
		label = l
	}
}

func quote(user string) {
	request, _ := http.NewRequest("GET", ratesService+"/rates/"+user, nil)
	client := &http.Client{}
	_, _ = client.Do(request)
}

func main() {
	setup()
	quote(label)
}
