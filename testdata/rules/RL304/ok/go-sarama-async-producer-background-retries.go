package orders

import "github.com/IBM/sarama"

// An asynchronous producer: the handler puts the message on Input() and
// returns; the producer's retries (6 attempts, each up to the default
// 30 s write and 30 s read deadlines) run in the background, so no caller
// waits for them.
func NewProducer() (sarama.AsyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Retry.Max = 5
	return sarama.NewAsyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
