package sync

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/util/retry"
)

// `DefaultRetry` (10 ms, factor 1, jitter 0.1) for every transient error
// of the API server, not only conflicts: the wait never grows.
func (s *Syncer) apply(ctx context.Context, obj *Object) error {
	return retry.OnError(retry.DefaultRetry, transient, func() error {
		return s.client.Apply(ctx, obj)
	})
}

func transient(err error) bool {
	return apierrors.IsServerTimeout(err) || apierrors.IsTooManyRequests(err)
}
