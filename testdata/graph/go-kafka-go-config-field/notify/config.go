package main

// Settings is filled from the environment at start-up.
type Settings struct {
	ListenAddr  string `env:"LISTEN_ADDR" envDefault:":8080"`
	EventBroker string `env:"KAFKA_ADDR"`
}
