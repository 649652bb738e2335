package orders

import "github.com/IBM/sarama"

// The method building the config is in config.go: its retries apply.
func (w *Writer) Open() (sarama.SyncProducer, error) {
	cfg := w.saramaConfig()
	return sarama.NewSyncProducer(w.brokers, cfg)
}
