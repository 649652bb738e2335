package com.acme.fileio;

import java.io.IOException;
import java.nio.ByteBuffer;

public abstract class AbstractFileIo implements FileIo {
    protected abstract int read(ByteBuffer dest, long position) throws IOException;

    @Override
    public int readFully(ByteBuffer dest, long position) throws IOException {
        return fully(dest, position);
    }

    private int fully(ByteBuffer dest, long position) throws IOException {
        int total = 0;
        while (dest.hasRemaining()) {
            int n = read(dest, position + total);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
        }
        return total;
    }
}
