// A hand-written gRPC retry of DEADLINE_EXCEEDED (a deadline a saturated
// server did not meet) with no budget and no circuit breaker around it.
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

public class Publisher {
    private final PublisherGrpc.PublisherBlockingStub stub;

    public Publisher(PublisherGrpc.PublisherBlockingStub stub) {
        this.stub = stub;
    }

    public PublishReply publish(PublishRequest request) {
        for (int attempt = 0; attempt < 4; attempt++) {
            try {
                return stub.publish(request);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED) {
                    continue;
                }
                throw e;
            }
        }
        throw new IllegalStateException("publish failed");
    }
}
