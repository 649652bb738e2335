package orders

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// A Writer's RequiredAcks is RequireNone by default: the broker sends no
// answer, so no answer times out; a failed connection is all the writer
// retries.
var events = &kafka.Writer{
	Addr:  kafka.TCP("kafka:9092"),
	Topic: "events",
}

func Publish(ctx context.Context, m kafka.Message) error {
	return events.WriteMessages(ctx, m)
}
