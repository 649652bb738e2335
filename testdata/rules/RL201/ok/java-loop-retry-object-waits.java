package com.example.props;

// A retry object that waits between attempts (`retry.waitForNextAttempt`):
// a delay, not none (seen wrong on a repository outside the review set,
// docs/loop-review.md fourth pass).
public class PropertyEditor {

    public Map<String, String> modify(Store store, Mutator m) throws Exception {
        Retry retry = Retry.builder().infiniteRetries().retryAfter(Duration.ofMillis(25))
            .incrementBy(Duration.ofMillis(25)).maxWait(Duration.ofSeconds(30)).createRetry();
        while (true) {
            try {
                return store.tryToModify(m);
            } catch (ConcurrentModificationException cme) {
                try {
                    retry.logRetry(log, "concurrent modification");
                    retry.waitForNextAttempt(log, "modify properties");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RuntimeException(e);
                }
            } finally {
                retry.useRetry();
            }
        }
    }
}
