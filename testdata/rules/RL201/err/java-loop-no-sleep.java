package com.example.cache;

import java.io.IOException;

public class CacheLoader {

    // Three attempts back to back: a struggling server gets them at once.
    public byte[] load(Api api, String key) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return api.fetch(key);
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }
}
