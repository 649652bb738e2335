// The dispatch program: it consumes orders from the broker.
package main

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/streadway/amqp"
)

var (
	amqpUri     string
	rabbitReady chan bool
)

func connectToRabbitMQ(uri string) *amqp.Connection {
	for {
		conn, err := amqp.Dial(uri)
		if err == nil {
			return conn
		}
		log.Printf("connecting to %s: %v", uri, err)
		time.Sleep(time.Second)
	}
}

func rabbitConnector(uri string) {
	conn := connectToRabbitMQ(uri)
	defer conn.Close()
	rabbitReady <- true
}

func main() {
	amqpHost, ok := os.LookupEnv("AMQP_HOST")
	if !ok {
		amqpHost = "rabbitmq"
	}
	amqpUri = fmt.Sprintf("amqp://guest:guest@%s:5672/", amqpHost)
	rabbitReady = make(chan bool)
	go rabbitConnector(amqpUri)
	<-rabbitReady
}
