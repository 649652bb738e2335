package main

import (
	"log"
	"time"

	"example.com/agent/pkg/remote"
)

// The package function asks a server: each pass is a request again, every
// 5 s in step with every other agent.
func register(url string) {
	for {
		err := remote.Register(url)
		if err == nil {
			return
		}
		log.Printf("register failed, retrying: %v", err)
		time.Sleep(5 * time.Second)
	}
}
