package dns

import (
	"context"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
)

type sessionConfig struct {
	Profile    string
	APIRetries int
	Region     string
}

// The options are given as a slice (kubernetes-sigs/external-dns
// provider/aws/config.go): the retryer in it is written, so the client
// does not retry with the SDK's defaults.
func newConfig(c sessionConfig) (awsv2.Config, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(func() awsv2.Retryer {
			return retry.AddWithMaxAttempts(retry.NewStandard(), c.APIRetries)
		}),
		config.WithSharedConfigProfile(c.Profile),
	}
	if c.Region != "" {
		opts = append(opts, config.WithRegion(c.Region))
	}
	return config.LoadDefaultConfig(context.Background(), opts...)
}
