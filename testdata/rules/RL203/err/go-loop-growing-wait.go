package sync

import "time"

// The wait doubles up to a cap: exponential back-off, read as such, but
// every client waits the same, so RL203 asks for jitter.
func push(c *Client, batch []byte) error {
	delay := 100 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = c.Send(batch); err == nil {
			return nil
		}
		time.Sleep(delay)
		delay = min(delay*2, 5*time.Second)
	}
	return err
}

// The factor written in place: 1 s, 2 s, 4 s.
func pull(c *Client) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.Fetch(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(1<<attempt) * time.Second)
	}
	return err
}

// The wait doubles before the first sleep (istio's mock OpenID server
// waits so): 20 ms, 40 ms, ...
func ping(c *Client) error {
	wait := 10 * time.Millisecond
	var err error
	for try := 0; try < 10; try++ {
		if err = c.Ping(); err != nil {
			wait *= 2
			time.Sleep(wait)
			continue
		}
		return nil
	}
	return err
}
