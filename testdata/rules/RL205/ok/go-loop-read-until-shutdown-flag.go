package reader

import (
	"fmt"
	"time"
)

// A stream reader's main loop, shaped as grafana/loki 65e30f8488
// `pkg/canary/reader/reader.go` `run`: every pass reads the next message,
// a failed read reconnects after a wait and the loop goes round after a
// good read as well. The only way out is the shutdown flag: the loop was
// told to stop, no try succeeded. A read loop, not a retry.
func (r *Reader) run() {
	r.reconnect()
	for {
		if r.shuttingDown {
			if r.conn != nil {
				_ = r.conn.Close()
				r.conn = nil
			}
			close(r.done)
			return
		}
		msg, err := r.conn.ReadMessage()
		if err != nil {
			fmt.Fprintf(r.w, "error reading, will reconnect in 10 seconds: %s\n", err)
			<-time.After(10 * time.Second)
			r.reconnect()
			continue
		}
		r.recv <- msg
	}
}
