package config

import (
	"os"

	"github.com/caarlos0/env/v11"
)

type Config struct {
	ProductAddr string `env:"PRODUCT_ADDR,required"`
}

type Other struct {
	Addr string
}

func Load() (Config, error) {
	var c Config
	return c, env.Parse(&c)
}

func LoadOther(primary bool) Other {
	var o Other
	if primary {
		o.Addr = os.Getenv("PRIMARY_ADDR")
	} else {
		o.Addr = os.Getenv("SECONDARY_ADDR")
	}
	return o
}
