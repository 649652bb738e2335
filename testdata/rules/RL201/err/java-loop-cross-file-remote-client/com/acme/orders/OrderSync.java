package com.acme.orders;

// The helper class of another file calls a remote service: the retry stays.
public class OrderSync {
    private final OrderClient client = new OrderClient();

    public String sync(String id) throws Exception {
        int attempts = 0;
        while (true) {
            try {
                return client.fetch(id);
            } catch (java.io.IOException e) {
                if (++attempts >= 3) {
                    throw e;
                }
            }
        }
    }
}
