package com.acme.fileio;

import java.io.IOException;
import java.nio.ByteBuffer;

public interface FileIo {
    int readFully(ByteBuffer dest, long position) throws IOException;

    FileIo reopen() throws IOException;
}
