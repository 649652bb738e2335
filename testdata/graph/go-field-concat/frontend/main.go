// The frontend program: its addresses come from the environment.
package main

import (
	"fmt"
	"net/http"
	"os"
)

type frontendServer struct {
	assistantAddr string
	quoteAddr     string
}

func main() {
	svc := new(frontendServer)
	mustMapEnv(&svc.assistantAddr, "ASSISTANT_ADDR")
	svc.quoteAddr = os.Getenv("QUOTE_ADDR")
	http.HandleFunc("/assistant", svc.assistantHandler)
	http.HandleFunc("/quote", svc.quoteHandler)
	_ = http.ListenAndServe(":8080", nil)
}

func mustMapEnv(target *string, envKey string) {
	v := os.Getenv(envKey)
	if v == "" {
		panic(fmt.Sprintf("environment variable %q not set", envKey))
	}
	*target = v
}
