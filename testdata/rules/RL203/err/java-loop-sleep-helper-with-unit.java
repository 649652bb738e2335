package com.example.registry;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

// A project's own sleep helper handed a TimeUnit (apache/rocketmq
// `ThreadUtils.sleep(1, TimeUnit.SECONDS)`): the wait is in that unit,
// `2s` here, not two milliseconds.
public class Registrar {
    public void register(RegistryClient client, String name) throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                client.register(name);
                return;
            } catch (IOException e) {
                ThreadUtils.sleep(2, TimeUnit.SECONDS);
            }
        }
        throw new IOException("could not register " + name);
    }
}
