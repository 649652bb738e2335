package search

import (
	"fmt"
	"net/http"
	"time"
)

const DefaultMaxRetries = 8

type Config struct {
	Host       string
	MaxRetries int
}

type Client struct {
	config *Config
	http   *http.Client
}

// The caller's config leaves `MaxRetries` at zero unless a user sets it:
// the client then takes its own default.
func NewClient(c *Config) *Client {
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	return &Client{config: c, http: &http.Client{Timeout: 10 * time.Second}}
}

func (c *Client) get(url string) (*http.Response, error) {
	for attempt := 1; attempt <= c.config.MaxRetries; attempt++ {
		resp, err := c.http.Get(url)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return nil, fmt.Errorf("%s: no answer", url)
}
