// A wait for a condition with a deadline, not a retry (apache/pinot
// KinesisDataServerStartable.waitForCondition): success is a state read
// (`Boolean.TRUE.equals(condition.apply(..))`), an exception while
// checking is logged and the wait goes on.
import java.util.function.Function;

class Waits {
    static void waitForCondition(Function<Void, Boolean> condition, long checkIntervalMs, long timeoutMs) {
        long endTime = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < endTime) {
            try {
                if (Boolean.TRUE.equals(condition.apply(null))) {
                    return;
                }
                Thread.sleep(checkIntervalMs);
            } catch (Exception e) {
                LOGGER.error("Caught exception while checking the condition", e);
            }
        }
    }
}
