// A page read from the local store through the project's file wrapper
// (`FileIo`), the file opened again when an interrupt closed its channel:
// local work, no server retried.
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;

class PageStoreIo {
    private volatile FileIo fileIo;

    private int readWithFailover(ByteBuffer dest, long position) throws IOException {
        boolean interrupted = false;
        int start = dest.position();
        while (true) {
            FileIo io = this.fileIo;
            if (io == null) {
                throw new IOException("FileIo has stopped");
            }
            try {
                int n = io.readFully(dest, position);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return n;
            } catch (ClosedChannelException e) {
                dest.position(start);
                if (e instanceof ClosedByInterruptException) {
                    interrupted = true;
                    Thread.interrupted();
                }
                reopen(io);
            }
        }
    }

    private void reopen(FileIo io) throws IOException {
        if (io == this.fileIo) {
            this.fileIo = io.reopen();
        }
    }
}
