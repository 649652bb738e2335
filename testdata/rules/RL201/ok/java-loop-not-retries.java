package com.example.storage;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

// Loops that go round after an exception without retrying the same call.
public class Placement {

    // Each pass asks for a smaller ensemble.
    public List<String> ensemble(Watcher watcher, int ensembleSize, int quorum) {
        int size = ensembleSize;
        while (size >= quorum) {
            try {
                return watcher.newEnsemble(size, quorum);
            } catch (NotEnoughBookiesException e) {
                size--;
            }
        }
        return null;
    }

    // The same, through a size computed from the step.
    public List<String> inRegion(Policy policy, int base, int remaining) {
        int add = remaining;
        while (add > 0) {
            int newSize = base + add;
            try {
                List<String> got = policy.newEnsemble(newSize);
                return got;
            } catch (NotEnoughBookiesException e) {
                add--;
            }
        }
        return null;
    }

    // Waiting for a result that is on its way.
    public Long lease(CompletableFuture<Long> leaseFuture) throws ExecutionException {
        while (true) {
            try {
                return leaseFuture.get(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return -1L;
            } catch (TimeoutException e) {
                continue;
            }
        }
    }

    // One more try after a repair, guarded by a flag.
    public Registration register(Handle handle) throws Exception {
        boolean selected = false;
        for (;;) {
            try {
                Registration r = new Registration(handle, selector());
                handle.registered();
                return r;
            } catch (CancelledKeyException e) {
                if (!selected) {
                    selectNow();
                    selected = true;
                } else {
                    throw e;
                }
            }
        }
    }

    // Creating the missing parent, then creating the node.
    public Result doCreate(ZkClient zk, String path) {
        boolean retry;
        do {
            retry = false;
            try {
                zk.create(path);
                return Result.OK;
            } catch (ZkNoNodeException e) {
                Result res = doCreate(zk, parentOf(path));
                if (res == Result.OK) {
                    retry = true;
                }
            } catch (Exception e) {
                return Result.ERROR;
            }
        } while (retry);
        return Result.OK;
    }

    // Sending again once the transport has reconnected: the pass waits for
    // the reconnection in an inner loop.
    public void oneway(Command command) throws IOException {
        for (int i = 0; !disposed; i++) {
            try {
                Transport transport = connected.get();
                while (transport == null && !disposed) {
                    try {
                        reconnectMutex.wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    transport = connected.get();
                }
                if (transport == null) {
                    break;
                }
                transport.oneway(command);
                return;
            } catch (IOException e) {
                handleTransportFailure(e);
            }
        }
    }
}
