package main

import (
	"context"
	"log"
	"time"

	"example.com/secrets/pkg/certs"
)

var setupLog = log.Default()

// Another controller writes the serving certificates to disk; the webhook
// waits for them, reading and verifying the files every 10 s. Nothing
// remote is asked again: no backoff or jitter spares a service here.
func waitForCerts(dir string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		err := certs.Check(dir, time.Now().Add(time.Hour))
		if err == nil {
			return nil
		}
		setupLog.Printf("invalid certs, retrying: %v", err)
		<-time.After(10 * time.Second)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}
