package com.example.payments;

import com.example.payments.retry.RetryOnTimeout;
import java.util.UUID;
import org.springframework.stereotype.Service;

// Each attempt runs the whole method again, so each one mints a new key.
@Service
public class PaymentClient {

    @RetryOnTimeout
    public Receipt charge(Api api, Charge charge) {
        String idempotencyKey = UUID.randomUUID().toString();
        return api.charge(charge, idempotencyKey);
    }
}
