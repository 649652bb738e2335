package users

import (
	"context"

	"google.golang.org/grpc"
)

// NewClient dials the users service with its own options and the
// caller's.
func NewClient(ctx context.Context, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.NewClient("dns:///users:9090", append([]grpc.DialOption{grpc.WithUserAgent("lookup")}, opts...)...)
}
