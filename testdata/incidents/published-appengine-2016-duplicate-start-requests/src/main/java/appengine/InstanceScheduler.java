// Google App Engine, 2016-08-11 (incident #16008): during a datacenter
// rebalance, with traffic routers restarting, requests to start rescheduled
// instances became slow; the scheduler took the slow answers as failures and
// sent the start requests again, overloading the routers further. The write-up
// gives no code: this is the behaviour it states (a start-instance RPC with a
// short deadline, sent again at once each time the deadline passes).
package appengine;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.TimeUnit;

public class InstanceScheduler {
    private final InstanceServiceGrpc.InstanceServiceBlockingStub stub;

    public InstanceScheduler(InstanceServiceGrpc.InstanceServiceBlockingStub stub) {
        this.stub = stub;
    }

    public StartReply startInstance(StartRequest request) {
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return stub.withDeadlineAfter(2, TimeUnit.SECONDS).startInstance(request);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED
                        || e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
                    continue;
                }
                throw e;
            }
        }
        throw new IllegalStateException("instance did not start: " + request.getAppId());
    }
}
