// A Go loop whose only way round is a gRPC code test written after the
// success return (`status.Code(err) == codes.Unavailable`, outside any
// `if err != nil` block): the call is made again at once.
package quota

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "example.com/quota/proto"
)

func Release(ctx context.Context, c pb.QuotaClient, req *pb.ReleaseRequest) error {
	for {
		_, err := c.Release(ctx, req)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.Unavailable {
			continue
		}
		return err
	}
}
