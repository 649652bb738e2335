// The bound lives in a retry object handed each failure (apache/
// incubator-seata ConnectionProxy.doRetryOnLockConflict): its `sleep(e)`
// throws once its tries are spent, so the loop is not endless.
import java.util.concurrent.Callable;

class LockRetry {
    <T> T doRetryOnLockConflict(Callable<T> callable) throws Exception {
        LockRetryController lockRetryController = new LockRetryController();
        while (true) {
            try {
                return callable.call();
            } catch (LockConflictException lockConflict) {
                lockRetryController.sleep(lockConflict);
            } catch (Exception e) {
                throw e;
            }
        }
    }
}
