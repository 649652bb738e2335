// The same shape retrying only UNAVAILABLE (`status.Code(err) ==
// codes.Unavailable` outside `if err != nil`): a connection that failed,
// which RL603 does not count as the overload signal.
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
		if status.Code(err) == codes.Unavailable {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		return nil, err
	}
	return nil, last
}
