package storage

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// The profile the client loads sets no retry key (.aws/config): the
// SDK default applies, written nowhere.
func newClient(ctx context.Context) (*s3.Client, error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithSharedConfigProfile("batch"))
	if err != nil {
		return nil, err
	}
	return s3.NewFromConfig(cfg), nil
}
