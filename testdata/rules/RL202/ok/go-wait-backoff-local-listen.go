package server

import (
	"context"
	"fmt"
	"net"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

var listenBackoff = wait.Backoff{
	Steps:    5,
	Duration: 500 * time.Millisecond,
	Factor:   1.0,
	Jitter:   0.1,
}

// Binding a local port while the previous process lets go of it: nothing
// remote is asked, so a delay that does not grow is no load on anyone.
func listen(host string, port int) (net.Listener, error) {
	lc := net.ListenConfig{}
	var ln net.Listener
	var lastErr error
	_ = wait.ExponentialBackoff(listenBackoff, func() (bool, error) {
		ln, lastErr = lc.Listen(context.Background(), "tcp", fmt.Sprintf("%s:%d", host, port))
		if lastErr != nil {
			return false, nil
		}
		return true, nil
	})
	return ln, lastErr
}
