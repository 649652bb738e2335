package config

import (
	"github.com/ilyakaznacheev/cleanenv"
)

type (
	Config struct {
		RabbitMQ      `yaml:"rabbitmq"`
		ProductClient `yaml:"product_client"`
		Orders        OrdersClient `yaml:"orders"`
	}

	RabbitMQ struct {
		URL string `env-required:"true" yaml:"url" env:"RABBITMQ_URL"`
	}

	ProductClient struct {
		URL string `env-required:"true" yaml:"url" env:"PRODUCT_CLIENT_URL"`
	}

	OrdersClient struct {
		URL string `yaml:"url" env:"ORDERS_URL"`
	}
)

func NewConfig() (*Config, error) {
	cfg := &Config{}
	if err := cleanenv.ReadEnv(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}
