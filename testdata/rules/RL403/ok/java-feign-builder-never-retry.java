package com.example.orders;

import feign.Feign;
import feign.Retryer;
import feign.jackson.JacksonDecoder;

// The retryer is chosen: Feign does not retry.
public class PaymentsClientFactory {

    public PaymentsApi create() {
        return Feign.builder()
                .retryer(Retryer.NEVER_RETRY)
                .decoder(new JacksonDecoder())
                .target(PaymentsApi.class, "http://payments:8080");
    }
}
