// A catch that answers UNAVAILABLE with a fallback and rethrows the rest:
// nothing goes round, so the loop (over regions) is no retry.
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

public class Quotes {
    private final QuoteGrpc.QuoteBlockingStub stub;

    public Quotes(QuoteGrpc.QuoteBlockingStub stub) {
        this.stub = stub;
    }

    public QuoteReply quote(QuoteRequest request) {
        for (int attempt = 0; attempt < 4; attempt++) {
            try {
                return stub.quote(request);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
                    return QuoteReply.getDefaultInstance();
                }
                throw e;
            }
        }
        throw new IllegalStateException("no quote");
    }
}
