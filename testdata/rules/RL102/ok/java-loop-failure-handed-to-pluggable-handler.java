import java.util.function.Function;

// Each failure is handed to a pluggable error handler, an interface this
// file declares and its creator supplies (`errorHandler.onError(desc, t)`):
// the handler decides whether the loop goes round (the project's handlers
// throw), as a retry object handed each failure does. No count or cap is
// missing here, and the handler sorts the failures
// (debezium/debezium `MongoDbConnection.execute`, twenty-sixth pass).
public class StoreConnection {
    public interface ErrorHandler {
        void onError(String desc, Throwable error);
    }

    private final ErrorHandler errorHandler;
    private final RemoteClientFactory clients;
    private volatile boolean running = true;

    public StoreConnection(RemoteClientFactory clients, ErrorHandler errorHandler) {
        this.clients = clients;
        this.errorHandler = errorHandler;
    }

    public <T> T execute(String desc, Function<RemoteClient, T> operation) throws InterruptedException {
        while (true) {
            try (RemoteClient client = clients.open()) {
                return operation.apply(client);
            } catch (Throwable t) {
                errorHandler.onError(desc, t);
                if (!running) {
                    throw new IllegalStateException("operation failed and termination requested", t);
                }
                Thread.sleep(1000);
            }
        }
    }
}
