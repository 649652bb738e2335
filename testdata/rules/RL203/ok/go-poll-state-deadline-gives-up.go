package service

import (
	"fmt"
	"time"
)

type control interface {
	Query() (string, error)
}

// Waits for the service to reach a state: the loop ends when the state is
// reached (its condition) or gives up at the deadline with an error. A
// poll of a state, not a call tried again after it failed.
func waitForState(c control, want string) error {
	state, err := c.Query()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Second)
	for state != want {
		if deadline.Before(time.Now()) {
			return fmt.Errorf("timed out waiting for state %q", want)
		}
		time.Sleep(250 * time.Millisecond)
		state, err = c.Query()
		if err != nil {
			return fmt.Errorf("querying state: %w", err)
		}
	}
	return nil
}
