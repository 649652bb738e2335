package cache

import (
	"context"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// Which backoff the list gets is an option of the cache: the growing
// `DefaultBackoff` or the flat `DefaultRetry`, decided when it runs.
func (c *Cache) list(ctx context.Context, client Lister) (*List, error) {
	var res *List
	var listRetry wait.Backoff
	if c.useBackoff {
		listRetry = retry.DefaultBackoff
	} else {
		listRetry = retry.DefaultRetry
	}
	listRetry.Steps = int(c.retryLimit)
	err := retry.OnError(listRetry, c.retryable, func() error {
		var err error
		res, err = client.List(ctx)
		return err
	})
	return res, err
}
