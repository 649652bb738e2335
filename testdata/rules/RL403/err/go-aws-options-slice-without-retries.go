package dns

import (
	"context"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

// The options are given as a slice, and none of them sets the retries:
// the SDK's standard mode, 3 attempts, that nothing here asks for.
func newConfig(profile, region string) (awsv2.Config, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithSharedConfigProfile(profile),
	}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	return config.LoadDefaultConfig(context.Background(), opts...)
}
