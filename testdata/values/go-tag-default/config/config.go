package config

import "time"

// Config is filled from the environment by kelseyhightower/envconfig
// (synthetic).
type Config struct {
	PaymentsURL string        `envconfig:"PAYMENTS_URL" default:"http://payments:8080"`
	RetryMax    int           `envconfig:"RETRY_MAX" default:"6"`
	RetryWait   time.Duration `envconfig:"RETRY_WAIT" default:"1500ms"`
}
