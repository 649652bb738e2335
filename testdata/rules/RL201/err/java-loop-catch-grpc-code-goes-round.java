// A catch of StatusRuntimeException that goes round only for UNAVAILABLE and
// rethrows the rest: a retry of UNAVAILABLE, sent again at once.
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
                if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
                    continue;
                }
                throw e;
            }
        }
        throw new IllegalStateException("publish failed");
    }
}
