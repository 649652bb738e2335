package clouddns

import "time"

// Waits for a change to be applied and gives up on the first error
// (cert-manager's clouddns.go has this shape): a poll, not a retry.
func wait(c *Client, chg *Change) error {
	var err error
	for chg.Status == "pending" {
		time.Sleep(time.Second)
		chg, err = c.Get(chg.Id)
		if err != nil {
			return err
		}
	}
	return nil
}
