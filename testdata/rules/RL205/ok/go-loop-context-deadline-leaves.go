package controller

import (
	"context"
	"log"
	"time"
)

// Waits for the certificates another controller writes, until the
// context's deadline: `ctx.Err()` ends the loop.
func waitForCerts(c CertInfo, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		err := c.client.Check(ctx, time.Now().Add(time.Hour))
		if err == nil {
			return nil
		}
		log.Printf("certs not ready, retrying: %v", err)
		<-time.After(10 * time.Second)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}
