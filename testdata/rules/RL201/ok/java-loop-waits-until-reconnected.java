package com.example.coordination;

import java.util.Date;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.KeeperException.ConnectionLossException;
import org.apache.zookeeper.KeeperException.SessionExpiredException;

// A call retried after the connection is back: the catch waits on a
// condition the event thread signals (`waitUntilConnected()` ->
// `waitForState(..)` -> `awaitUntil(deadline)`), two methods of this class
// deep. Each pass waits until the session is connected again: not "at
// once" (alibaba/otter `ZkClientx.retryUntilConnected`, seventeenth pass).
public class SessionClient {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition stateChanged = lock.newCondition();
    private volatile boolean connected;

    public <T> T retryUntilConnected(Callable<T> callable) throws Exception {
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                return callable.call();
            } catch (ConnectionLossException e) {
                waitUntilConnected();
            } catch (SessionExpiredException e) {
                waitUntilConnected();
            }
        }
        throw new IllegalStateException("not connected");
    }

    public void waitUntilConnected() throws InterruptedException {
        waitUntilConnected(Integer.MAX_VALUE, TimeUnit.MILLISECONDS);
    }

    public boolean waitUntilConnected(long time, TimeUnit unit) throws InterruptedException {
        return waitForState(true, time, unit);
    }

    public boolean waitForState(boolean state, long time, TimeUnit unit) throws InterruptedException {
        Date deadline = new Date(System.currentTimeMillis() + unit.toMillis(time));
        lock.lockInterruptibly();
        try {
            boolean stillWaiting = true;
            while (connected != state) {
                if (!stillWaiting) {
                    return false;
                }
                stillWaiting = stateChanged.awaitUntil(deadline);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
