package com.squareup.multipass;

import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

public class MerchantSessions {

    private static final int MAX_TRANSACTION_RETRIES = 500;

    private final Jedis redis;

    MerchantSessions(Jedis redis) {
        this.redis = redis;
    }

    /** Optimistic Redis transaction, retried at once whenever the watched key changed. */
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
