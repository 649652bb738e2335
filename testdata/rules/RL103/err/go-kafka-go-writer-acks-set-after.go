package billing

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// The writer is made with no answer asked for, then told to wait for the
// leader's: from then on an answer that times out is retried, and a
// batch the broker already appended is appended again.
func NewPublisher(brokers ...string) *kafka.Writer {
	w := &kafka.Writer{Addr: kafka.TCP(brokers...), Topic: "invoices"}
	w.RequiredAcks = kafka.RequireOne
	return w
}

func Send(ctx context.Context, w *kafka.Writer, m kafka.Message) error {
	return w.WriteMessages(ctx, m)
}
