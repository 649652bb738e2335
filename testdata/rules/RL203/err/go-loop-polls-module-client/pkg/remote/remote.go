package remote

import (
	"fmt"
	"net/http"
)

// Register tells the server this agent is up.
func Register(url string) error {
	resp, err := http.Post(url+"/register", "application/json", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("register: %s", resp.Status)
	}
	return nil
}
