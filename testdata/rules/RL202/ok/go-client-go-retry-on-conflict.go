package controller

import (
	"context"

	"k8s.io/client-go/util/retry"
)

// A status write that loses to another writer reads the object again and
// writes once more: client-go's `RetryOnConflict` goes round on a 409
// alone, a short constant wait is right for it.
func (r *Reconciler) setPhase(ctx context.Context, name, phase string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := r.store.Get(ctx, name)
		if err != nil {
			return err
		}
		obj.Status.Phase = phase
		return r.store.UpdateStatus(ctx, obj)
	})
}
