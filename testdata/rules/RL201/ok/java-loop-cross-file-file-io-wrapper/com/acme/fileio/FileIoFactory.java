package com.acme.fileio;

import java.io.IOException;
import java.nio.file.Path;

public interface FileIoFactory {
    FileIo create(Path path) throws IOException;
}
