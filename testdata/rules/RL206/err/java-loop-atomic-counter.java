package com.example.orders;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

// The attempt counter is an AtomicInteger (apache/incubator-seata's saga
// SpringBeanServiceInvoker counts its retries this way): the
// `incrementAndGet()` in the test that throws is the bound, ten attempts.
public class OrderClient {
    private static final int MAX_ATTEMPTS = 10;

    public Order fetch(Api api, String id) throws Exception {
        AtomicInteger attempts = new AtomicInteger(0);
        while (true) {
            try {
                return api.order(id);
            } catch (IOException e) {
                if (attempts.incrementAndGet() >= MAX_ATTEMPTS) {
                    throw e;
                }
                Thread.sleep(200 + (long) (Math.random() * 200));
            }
        }
    }
}
