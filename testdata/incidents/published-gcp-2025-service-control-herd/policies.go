package servicecontrol

import (
	"context"
	"time"

	"cloud.google.com/go/spanner"
)

// On start, each task reads its quota policies from the regional Spanner
// table and asks again after a fixed second until it gets them: with every
// task restarting at once, the same second lines up for all of them.
func LoadPolicies(ctx context.Context, db *spanner.Client) (*Policies, error) {
	for {
		p, err := readPolicies(ctx, db)
		if err != nil {
			time.Sleep(1 * time.Second)
			continue
		}
		return p, nil
	}
}
