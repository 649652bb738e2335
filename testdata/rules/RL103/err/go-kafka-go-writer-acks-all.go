package orders

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// segmentio/kafka-go's Writer retries a batch up to MaxAttempts (10 by
// default) on every temporary Kafka error, RequestTimedOut included, and
// has no idempotent producer: a batch the broker appended before its
// answer timed out is appended again, a duplicate order event.
var orders = &kafka.Writer{
	Addr:         kafka.TCP("kafka-0.kafka:9092", "kafka-1.kafka:9092"),
	Topic:        "orders",
	RequiredAcks: kafka.RequireAll,
}

func Publish(ctx context.Context, m kafka.Message) error {
	return orders.WriteMessages(ctx, m)
}
