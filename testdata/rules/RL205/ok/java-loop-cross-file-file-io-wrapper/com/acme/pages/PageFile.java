package com.acme.pages;

import com.acme.fileio.FileIo;
import com.acme.fileio.FileIoFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;

// A page read from the local disk through the project's file wrapper
// (`FileIo`, declared in another file and imported), the file opened again
// when an interrupt closed its channel: local work, no server retried. The
// wrapper's own classes are named for it (`AbstractFileIo`), and so is the
// factory that opens the file again (`FileIoFactory`); those names are no
// remote store (apache/ignite-3's page store, twenty-sixth pass).
public class PageFile {
    private final FileIoFactory ioFactory;
    private final Path path;
    private volatile FileIo fileIo;

    public PageFile(FileIoFactory ioFactory, Path path) {
        this.ioFactory = ioFactory;
        this.path = path;
    }

    public int read(ByteBuffer dest, long position) throws IOException {
        boolean interrupted = false;
        int start = dest.position();
        while (true) {
            FileIo io = this.fileIo;
            if (io == null) {
                throw new IOException("closed");
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
            this.fileIo = ioFactory.create(path);
        }
    }
}
