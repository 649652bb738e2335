package sync

import (
	"context"
	"errors"
	"fmt"

	"github.com/cenkalti/backoff/v5"
)

var errNotFound = errors.New("not found")

// A missing object counts as done; every other error, a rejected request
// among them, goes round: the test names what ends the retry, not what is
// retried.
func (s *syncer) remove(ctx context.Context, id string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		err := s.remote.Delete(ctx, id)
		if errors.Is(err, errNotFound) {
			return nil, nil
		}
		return nil, err
	}, backoff.WithMaxTries(4))
	return err
}

// A poll that returns the call's error as it is: every error goes round,
// though success is a condition of its own.
func (s *syncer) waitReady(ctx context.Context, id string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		ready, err := s.remote.Ready(ctx, id)
		if err != nil {
			return nil, err
		}
		if ready {
			return nil, nil
		}
		return nil, fmt.Errorf("%s not ready", id)
	}, backoff.WithMaxTries(4))
	return err
}

// An event found outdated is dropped (success); otherwise the client's
// error is returned as it is, a rejected event included.
func (s *syncer) resend(ctx context.Context, ev string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		if s.outdated(ev) {
			return nil, nil
		}
		return nil, s.remote.Send(ctx, ev)
	}, backoff.WithMaxTries(4))
	return err
}
