package storage

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// The mode is written: its 3 attempts and its retry quota are chosen.
func newClient(ctx context.Context) (*s3.Client, error) {
	cfg, err := config.LoadDefaultConfig(ctx,
		config.WithRegion("eu-west-1"),
		config.WithRetryMode(aws.RetryModeStandard),
	)
	if err != nil {
		return nil, err
	}
	return s3.NewFromConfig(cfg), nil
}
