// A dial loop in a goroutine that leaves by its label when the caller
// sends on `cancel`, which it does when its `time.After(timeout)` fires
// (goharbor/harbor c50c7ddd6e `src/common/utils/utils.go` `TestTCPConn`):
// the caller's timeout caps it, not an unlimited retry.
package utils

import (
	"fmt"
	"net"
	"time"
)

func TestTCPConn(addr string, timeout, interval int) error {
	success := make(chan int, 1)
	cancel := make(chan int, 1)

	go func() {
		n := 1
	loop:
		for {
			select {
			case <-cancel:
				break loop
			default:
				conn, err := net.DialTimeout("tcp", addr, time.Duration(n)*time.Second)
				if err != nil {
					n = n * 2
					time.Sleep(time.Duration(interval) * time.Second)
					continue
				}
				_ = conn.Close()
				success <- 1
				break loop
			}
		}
	}()

	select {
	case <-success:
		return nil
	case <-time.After(time.Duration(timeout) * time.Second):
		cancel <- 1
		return fmt.Errorf("failed to connect to tcp:%s after %d seconds", addr, timeout)
	}
}
