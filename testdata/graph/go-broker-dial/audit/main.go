// The audit program: it subscribes to the bus at a fixed address.
package main

import (
	"log"

	nats "github.com/nats-io/nats.go"
)

func main() {
	nc, err := nats.Connect("nats://audit:secret@events-bus:4222")
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	_, _ = nc.Subscribe("events", func(m *nats.Msg) {})
	select {}
}
