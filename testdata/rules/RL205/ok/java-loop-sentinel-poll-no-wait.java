// Re-reading a value until it is not the "none yet" marker is a poll, not
// a retry: the marker names no error or failure.
class Offsets {
    static final long NO_OFFSET = -1L;

    long awaitOffset(Partition p) throws InterruptedException {
        while (true) {
            long offset = p.committedOffset();
            if (offset != NO_OFFSET) {
                return offset;
            }
            Thread.sleep(100);
        }
    }
}
