// A Go loop that leaves on success first (`if err == nil { return }`) and
// then sorts the error by its gRPC code outside any `if err != nil` block:
// RESOURCE_EXHAUSTED and UNAVAILABLE go round, with nothing limiting the
// retries as a whole.
package quota

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "example.com/quota/proto"
)

func Reserve(ctx context.Context, c pb.QuotaClient, req *pb.ReserveRequest) (*pb.ReserveReply, error) {
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		reply, err := c.Reserve(ctx, req)
		if err == nil {
			return reply, nil
		}
		last = err
		st, _ := status.FromError(err)
		if st.Code() == codes.ResourceExhausted || st.Code() == codes.Unavailable {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		return nil, err
	}
	return nil, last
}
