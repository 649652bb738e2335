// A loop bounded by a counter it counts down (vmware-tanzu/velero
// d30d389b5 `pkg/cmd/server/server.go`, the controller manager's start):
// `retry := 10; for { ..; retry--; if retry == 0 { break } }` makes 10
// attempts, not an unlimited retry.
package server

import (
	"log"
	"time"
)

func newManager(c *Client) (*Manager, error) {
	var mgr *Manager
	var err error
	retry := 10
	for {
		mgr, err = c.NewManager()
		if err == nil {
			break
		}
		retry--
		if retry == 0 {
			break
		}
		log.Printf("failed to create controller manager, need retry: %v", err)
		time.Sleep(time.Second)
	}
	return mgr, err
}

func connect(c *Client) error {
	var err error
	for left := 5; ; left -= 1 {
		if err = c.Connect(); err == nil {
			return nil
		}
		if left <= 1 {
			return err
		}
		time.Sleep(2 * time.Second)
	}
}
