import java.util.List;

// A rollback retried until the caller's time runs out: the clock is read in
// a method of the class (`remaining(..)`), and the way out is a method that
// always throws through another (`fail(..)` -> `sneakyThrow(..)`). Both are
// a deadline, so the loop is bounded in time (apache/ignite-3's
// transaction rollback, twenty-sixth pass).
class TxRollback {
    private final RemoteClient client;

    TxRollback(RemoteClient client) {
        this.client = client;
    }

    void rollbackUntilDeadline(Exception first, long start, long timeout, List<Throwable> errors) {
        while (true) {
            try {
                client.rollback();
                break;
            } catch (Exception e) {
                errors.add(e);
                if (remaining(timeout, start) <= 0) {
                    fail(first, errors);
                }
            }
        }
    }

    void abortUntilDeadline(Exception first, long start, long timeout, List<Throwable> errors) {
        while (true) {
            try {
                client.abort();
                break;
            } catch (Exception e) {
                errors.add(e);
                if (System.currentTimeMillis() - start >= timeout) {
                    fail(first, errors);
                }
            }
        }
    }

    private static long remaining(long timeout, long start) {
        long now = System.currentTimeMillis();
        long left = timeout - (now - start);
        return left;
    }

    private static void fail(Throwable e, List<Throwable> errors) {
        for (Throwable t : errors) {
            e.addSuppressed(t);
        }
        sneakyThrow(e);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }
}
