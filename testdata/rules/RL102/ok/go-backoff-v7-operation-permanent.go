package kube

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v7"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// v7 keeps v5's `Retry(ctx, op, opts...)`: the operation is the second
// argument, and it stops on a missing pod.
func waitTerminated(ctx context.Context, pods PodGetter, name string) (*Pod, error) {
	return backoff.Retry(
		ctx,
		func() (*Pod, error) {
			p, err := pods.Get(ctx, name)
			if err != nil {
				if apierrors.IsNotFound(err) {
					return nil, backoff.Permanent(err)
				}
				return nil, err
			}
			return p, nil
		},
		backoff.WithBackOff(backoff.NewExponentialBackOff()),
		backoff.WithMaxElapsedTime(2*time.Minute),
	)
}
