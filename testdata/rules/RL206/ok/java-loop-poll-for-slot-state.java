// A wait for a state, not a retry (apache/seatunnel PostgresConnection
// readReplicationSlotInfo): the query's errors propagate (no `try`), and a
// `null` answer means the slot is not ready yet. 900 passes 2 s apart is a
// 30-minute budget by design, not 900 attempts of a failed call.
import java.sql.SQLException;

class Slots {
    private static final int MAX_ATTEMPTS_FOR_OBTAINING_REPLICATION_SLOT = 900;

    Slot readSlot(String name) throws SQLException, InterruptedException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS_FOR_OBTAINING_REPLICATION_SLOT; attempt++) {
            final Slot slot = fetchSlot(name);
            if (slot != null) {
                return slot;
            }
            log.warn("slot {} not ready yet, attempt {}", name, attempt);
            metronome.pause();
        }
        throw new IllegalStateException("no valid replication slot");
    }

    private Slot fetchSlot(String name) throws SQLException {
        Row row = db.query("select * from pg_replication_slots where slot_name = ?", name);
        if (row.get("confirmed_flush_lsn") == null) {
            return null;
        }
        return new Slot(row);
    }
}
