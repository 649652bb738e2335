package com.acme.fileio;

import java.io.IOException;
import java.nio.file.Path;

public class RandomAccessFileIoFactory implements FileIoFactory {
    @Override
    public FileIo create(Path path) throws IOException {
        return new RandomAccessFileIo(path);
    }
}
