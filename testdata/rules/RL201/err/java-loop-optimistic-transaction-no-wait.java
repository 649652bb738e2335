package com.example.sessions;

import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

// An optimistic transaction retried at once: each pass opens a fresh
// transaction on the same store (`tx = redis.multi()`), and a null `exec()`
// (the watched key changed) goes round with no wait, up to 500 times. Under
// contention every client hammers the store (the shape of Square's March
// 2017 Multipass outage). A fresh handle made the same way each pass is the
// same call tried again, not another target.
public class SessionStore {

    private static final int MAX_TRANSACTION_RETRIES = 500;

    private final Jedis redis;

    SessionStore(Jedis redis) {
        this.redis = redis;
    }

    public void addSession(String merchant, String session) {
        for (int i = 0; i < MAX_TRANSACTION_RETRIES; i++) {
            redis.watch("sessions:" + merchant);
            Transaction tx = redis.multi();
            tx.sadd("sessions:" + merchant, session);
            List<Object> result = tx.exec();
            if (result != null) {
                return;
            }
        }
        throw new IllegalStateException("could not add session for " + merchant);
    }
}
