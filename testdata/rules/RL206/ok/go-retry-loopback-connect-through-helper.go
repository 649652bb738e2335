package validate

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"time"

	"github.com/go-logr/logr"
	"github.com/sethvargo/go-retry"
)

const retries = 10

// Checking this host's own redirect rules: the client dials from a
// loopback address, which the kernel never routes off the host, so each
// attempt reaches only a server of this process. Waiting for the rules to
// apply asks no service again.
func RunClient(ctx context.Context, log logr.Logger, ip netip.Addr, port uint16) error {
	return retry.Do(
		ctx,
		retry.WithMaxRetries(retries, retry.NewConstant(time.Second)),
		func(context.Context) error {
			if err := connectLocally(ip, port); err != nil {
				log.Info("failed to connect to the server, retrying", "error", err)
				return retry.RetryableError(err)
			}
			return nil
		},
	)
}

func connectLocally(serverIP netip.Addr, serverPort uint16) error {
	var laddr *net.TCPAddr
	var err error
	switch {
	case serverIP.Is6():
		if laddr, err = net.ResolveTCPAddr("tcp", "[::1]:0"); err != nil {
			return err
		}
	default:
		if laddr, err = net.ResolveTCPAddr("tcp", "127.0.0.1:0"); err != nil {
			return err
		}
	}
	dialer := net.Dialer{LocalAddr: laddr, Timeout: 50 * time.Millisecond}
	port := fmt.Sprintf("%d", serverPort)
	if serverPort == 0 {
		p, _ := rand.Int(rand.Reader, big.NewInt(10000))
		port = fmt.Sprintf("%d", 20000+p.Int64())
	}
	conn, err := dialer.Dial("tcp", net.JoinHostPort(serverIP.String(), port))
	if err != nil {
		return err
	}
	defer conn.Close()
	return nil
}
