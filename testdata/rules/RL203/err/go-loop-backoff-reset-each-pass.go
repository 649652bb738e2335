package internalclient

import (
	"net"
	"time"
)

// The back-off is declared inside the loop, so every pass starts again from
// 50ms: `backoff *= 2` never reaches the next wait, and every client waits
// the same fixed 50ms.
func Connect(addr string) net.Conn {
	for i := 0; i < 5; i++ {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return conn
		}
		backoff := 50 * time.Millisecond
		time.Sleep(backoff)
		backoff *= 2
	}
	return nil
}
