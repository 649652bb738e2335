package validate

import (
	"context"
	"net"
	"time"

	"github.com/go-logr/logr"
	"github.com/sethvargo/go-retry"
)

const retries = 10

// The same helper shape, but the dialer has no loopback local address: the
// address is a peer's, so every replica asks it 11 times.
func RunClient(ctx context.Context, log logr.Logger, addr string) error {
	return retry.Do(
		ctx,
		retry.WithMaxRetries(retries, retry.NewConstant(time.Second)),
		func(context.Context) error {
			if err := connectTo(addr); err != nil {
				log.Info("failed to connect to the server, retrying", "error", err)
				return retry.RetryableError(err)
			}
			return nil
		},
	)
}

func connectTo(addr string) error {
	laddr, err := net.ResolveTCPAddr("tcp", "10.0.0.5:0")
	if err != nil {
		return err
	}
	dialer := net.Dialer{LocalAddr: laddr, Timeout: 50 * time.Millisecond}
	conn, err := dialer.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	return nil
}
