package controller

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// Five tries, the waits doubling from 100 ms with 10% jitter.
func (r *Reconciler) updateStatus(obj *Object) error {
	b := wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.1}
	return retry.OnError(b, isTransient, func() error {
		return r.client.UpdateStatus(obj)
	})
}
