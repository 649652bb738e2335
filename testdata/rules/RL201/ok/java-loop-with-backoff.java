package com.example.cache;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

public class CacheLoader {

    public byte[] load(Api api, String key) throws IOException, InterruptedException {
        IOException last = null;
        long backoff = 100;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return api.fetch(key);
            } catch (IOException e) {
                last = e;
                Thread.sleep(ThreadLocalRandom.current().nextLong(backoff));
                backoff *= 2;
            }
        }
        throw last;
    }
}
