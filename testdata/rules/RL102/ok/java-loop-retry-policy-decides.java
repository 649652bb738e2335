package com.example.tasks;

import java.util.concurrent.Callable;

// The catch hands every exception to a retry policy
// (`retryPolicy.shouldRetry(e, ++attempts, ..)`), which decides which
// ones go round: a predicate, not "every error" (seen wrong on a
// repository outside the review set, docs/loop-review.md fourth pass).
public class RetriableTask<V> implements Callable<V> {

    public V call() throws Exception {
        int attempts = 0;
        Exception cause;
        while (true) {
            try {
                return task.call();
            } catch (Exception e) {
                cause = e;
                RetryPolicy.RetryAction action = retryPolicy.shouldRetry(e, ++attempts, 0, true);
                if (action.action == RetryPolicy.RetryAction.RetryDecision.RETRY) {
                    sleepAtLeast(action.delayMillis);
                } else {
                    break;
                }
            }
        }
        throw new IOException("failed after " + attempts + " attempts", cause);
    }
}
