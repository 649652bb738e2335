// An I/O action run again when the thread was interrupted (its channel
// closed under it): only interruptions go round, no failure of the action
// is retried. Every other exception leaves.
public final class ChannelWrites {
    public static void runUninterruptibly(IoAction action) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                try {
                    action.run();
                    break;
                } catch (ClosedByInterruptException | InterruptedException e) {
                    LOG.warn("write interrupted, doing it again", e);
                    interrupted = true;
                    Thread.interrupted();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
