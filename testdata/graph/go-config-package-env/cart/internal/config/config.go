package config

import "os"

type Config struct {
	LogLevel                  string
	GRPCProductServiceAddress string
}

func InitConfig() Config {
	return Config{
		LogLevel:                  os.Getenv("LOG_LEVEL"),
		GRPCProductServiceAddress: os.Getenv("GRPC_PRODUCT_SERVICE_ADDRESS"),
	}
}
