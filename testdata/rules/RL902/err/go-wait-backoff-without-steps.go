package controller

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// No Steps: wait.ExponentialBackoff loops `for backoff.Steps > 0`, so the
// update is never sent and OnError returns wait.ErrWaitTimeout.
func (r *Reconciler) updateStatus(obj *Object) error {
	b := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.1}
	return retry.OnError(b, isTransient, func() error {
		return r.client.UpdateStatus(obj)
	})
}
