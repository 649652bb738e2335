package main

import (
	"context"

	"github.com/segmentio/kafka-go"
)

func newEventWriter(s Settings) *kafka.Writer {
	return &kafka.Writer{
		Addr:         kafka.TCP(s.EventBroker),
		Topic:        "notifications",
		RequiredAcks: kafka.RequireAll,
	}
}

func publish(ctx context.Context, w *kafka.Writer, body []byte) error {
	return w.WriteMessages(ctx, kafka.Message{Value: body})
}
