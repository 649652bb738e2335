package orders

import "github.com/IBM/sarama"

// The method building the config is in config.go: its retries apply.
func (w *Writer) Open(brokers []string) (sarama.SyncProducer, error) {
	cfg := w.saramaConfig()
	return sarama.NewSyncProducer(brokers, cfg)
}
