package audit

import (
	"context"
	"time"

	"github.com/segmentio/kafka-go"
)

// kafka-go's Writer waits n x n x WriteBackoffMin before retry n, at most
// WriteBackoffMax, with no random part: every writer that lost the same
// broker comes back on the same schedule.
var events = &kafka.Writer{
	Addr:            kafka.TCP("kafka:9092"),
	Topic:           "audit",
	WriteBackoffMin: 250 * time.Millisecond,
	WriteBackoffMax: 5 * time.Second,
}

func Record(ctx context.Context, m kafka.Message) error {
	return events.WriteMessages(ctx, m)
}
