// A loop that waits for files of its own host to be written (dapr
// d845074 `pkg/sentry/server/oidc/oidc.go`): it asks no one again, no
// backoff spares a service; not a retry whose waits want jitter.
package oidc

import (
	"context"
	"log"
	"os"
	"time"
)

func (s *Server) waitForCerts(ctx context.Context) error {
	for {
		_, errC := os.Stat(s.certPath)
		_, errK := os.Stat(s.keyPath)
		if errC == nil && errK == nil {
			break
		}
		log.Printf("waiting for TLS certificate and key files: %v, %v", errC, errK)
		select {
		case <-time.After(5 * time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
