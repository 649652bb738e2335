package store

import (
	"net/http"
	"time"
)

// Library code shared by the programs: the module's name is its unit.
func Ping() error {
	c := &http.Client{Timeout: time.Second}
	_, err := c.Get("http://inventory:8080/health")
	return err
}
