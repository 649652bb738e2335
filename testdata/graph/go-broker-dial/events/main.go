// The events program: it publishes to NATS.
package main

import (
	"log"
	"os"

	"github.com/nats-io/nats.go"
)

func main() {
	nc, err := nats.Connect(os.Getenv("NATS_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	_ = nc.Publish("events", []byte("started"))
}
