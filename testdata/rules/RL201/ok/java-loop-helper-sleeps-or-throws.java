package com.example.orders;

import java.io.IOException;

// Helpers of the same class, with no `try` of their own: one only sleeps,
// one only throws. The loop's wait and its exit are in them.
public class OrderClient {
    private final Api api;

    public OrderClient(Api api) {
        this.api = api;
    }

    public Order fetch(String id) throws InterruptedException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return api.fetch(id);
            } catch (IOException e) {
                waitABit();
            }
        }
        return null;
    }

    public Order place(Order order) {
        while (true) {
            try {
                return api.place(order);
            } catch (IOException e) {
                fail(e);
            }
        }
    }

    private void waitABit() throws InterruptedException {
        Thread.sleep(500);
    }

    private void fail(IOException e) {
        throw new IllegalStateException("could not place the order", e);
    }
}
