package com.example.payments;

import com.example.payments.retry.RetryOnTimeout;
import java.util.UUID;
import org.springframework.stereotype.Service;

// The caller mints the key once; every attempt of charge() sends it.
@Service
public class PaymentClient {

    public Receipt pay(Api api, Charge charge) {
        return charge(api, charge, UUID.randomUUID().toString());
    }

    @RetryOnTimeout
    public Receipt charge(Api api, Charge charge, String idempotencyKey) {
        return api.charge(charge, idempotencyKey);
    }
}
