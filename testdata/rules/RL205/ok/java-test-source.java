package com.example.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

// A test's wait loops are not service code.
public class StoreTestUtils {

    public static void waitUntilReady(Store store) throws InterruptedException {
        while (true) {
            try {
                store.ping();
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
    }
}
