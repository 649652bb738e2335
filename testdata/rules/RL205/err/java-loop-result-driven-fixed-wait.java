package com.example.queue;

import java.util.concurrent.TimeUnit;

// Retries driven by the operation's result, each waiting a fixed time in a
// `try` that wraps only the sleep.
public class QueueWriter {

    private final int maxRetries = 30;

    // The result kept in a flag, an `else` that waits.
    public void put(RemoteQueue queue, Request request) {
        for (int i = 0; i < maxRetries; i++) {
            boolean result = queue.putPosition(request.offset(), request.size());
            if (result) {
                break;
            } else {
                warn("put failed, retry " + i + " times");
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    // ignored
                }
            }
        }
    }

    // The attempt is the loop's condition and the body counts retries.
    public void start(BrokerService service) {
        int retryTimes = 0;
        do {
            try {
                TimeUnit.SECONDS.sleep(5);
            } catch (InterruptedException ignored) {
            }
            retryTimes++;
            warn("failed to start, retry times: " + retryTimes);
        } while (!service.startBasicService());
    }

    private void warn(String msg) {
    }
}
