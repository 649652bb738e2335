// Loops that go round on a race with another thread or writer, not on a
// failed call (apache/incubator-seata CollectionUtils.getLast,
// ReflectionUtil.getFieldValue, AbstractUndoLogManager.undo): only a local
// state exception (`IndexOutOfBoundsException`, `IllegalAccessException`)
// or a write conflict (`SQLIntegrityConstraintViolationException`: another
// process inserted the row first, the next pass reads it) goes round.
import java.lang.reflect.Field;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.List;

class Races {
    static <T> T getLast(List<T> list) {
        while (true) {
            int size = list.size();
            if (size == 0) {
                return null;
            }
            try {
                return list.get(size - 1);
            } catch (IndexOutOfBoundsException ex) {
                // catch the exception and continue to retry
            }
        }
    }

    static Object getFieldValue(Object target, Field field) {
        while (true) {
            if (!field.isAccessible()) {
                field.setAccessible(true);
            }
            try {
                return field.get(target);
            } catch (IllegalAccessException ignore) {
                // another thread ran `field.setAccessible(false)`: retry
            }
        }
    }

    void undo(DataSource ds, String xid) throws Exception {
        for (;;) {
            try {
                Connection conn = ds.getConnection();
                if (undoLogExists(conn, xid)) {
                    undoAndDelete(conn, xid);
                } else {
                    insertGlobalFinished(conn, xid);
                }
                conn.commit();
                return;
            } catch (SQLIntegrityConstraintViolationException e) {
                // inserted by another process meanwhile: retry the undo
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
