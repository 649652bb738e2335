package com.acme.fileio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public class RandomAccessFileIo extends AbstractFileIo {
    private final Path path;
    private final FileChannel ch;

    public RandomAccessFileIo(Path path) throws IOException {
        this.path = path;
        this.ch = FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override
    protected int read(ByteBuffer dest, long position) throws IOException {
        return ch.read(dest, position);
    }

    @Override
    public FileIo reopen() throws IOException {
        return new RandomAccessFileIo(path);
    }
}
