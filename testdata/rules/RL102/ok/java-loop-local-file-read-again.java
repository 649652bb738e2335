package com.example.local;

import java.io.File;
import java.nio.file.Files;

// A token file another local process rewrites, read again after a failed
// read or parse (every `Exception` goes round, with a growing pause): the
// local disk, not a remote call.
class TokenFile {
    static Token load(String tokenPath, int maxReads) {
        int read = 1;
        RuntimeException last = null;
        while (read <= maxReads) {
            try {
                String text = new String(Files.readAllBytes(new File(tokenPath).toPath()));
                return Token.parse(text);
            } catch (Exception e) {
                last = new RuntimeException("cannot read " + tokenPath, e);
            }
            try {
                Thread.sleep(read * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
            read++;
        }
        throw last;
    }

    static final class Token {
        static Token parse(String text) {
            return new Token();
        }
    }
}
