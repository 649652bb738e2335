// Failover over a list of nodes picked round-robin (apache/inlong tubemq's
// RpcServiceFailoverInvoker): each pass asks the next master, bounded by
// the number of masters, so no delay is due between passes.
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

public class FailoverInvoker {
    private final AtomicInteger retryCounter = new AtomicInteger(0);
    private final List<String> addressList;
    private final int masterNodeCnt;
    private final ClientFactory clientFactory;

    public FailoverInvoker(List<String> addressList, ClientFactory clientFactory) {
        this.addressList = addressList;
        this.masterNodeCnt = addressList.size();
        this.clientFactory = clientFactory;
    }

    public Client getNextClient() {
        Client client = null;
        int retryTimes = masterNodeCnt;
        while (client == null || !client.isReady()) {
            String nodeKey = addressList.get((retryCounter.getAndIncrement() & Integer.MAX_VALUE) % masterNodeCnt);
            try {
                client = clientFactory.getClient(nodeKey);
            } catch (Throwable e) {
                // try the next master
            }
            if (retryTimes-- == 0) {
                break;
            }
        }
        return client;
    }
}
