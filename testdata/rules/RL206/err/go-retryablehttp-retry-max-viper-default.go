package billing

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/spf13/viper"
)

// The retry count is a configuration key whose only value in the code is
// its default: twelve retries, thirteen attempts per call.
func init() {
	viper.SetDefault("ledger.retry_max", 12)
	viper.SetDefault("ledger.timeout", 2*time.Second)
}

func NewLedgerClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = viper.GetInt("ledger.retry_max")
	c.HTTPClient.Timeout = viper.GetDuration("ledger.timeout")
	return c
}

func Post(c *retryablehttp.Client, body []byte) error {
	resp, err := c.Post("http://ledger:8080/entries", "application/json", body)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
