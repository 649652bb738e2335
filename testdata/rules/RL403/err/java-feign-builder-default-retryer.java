package com.example.orders;

import feign.Feign;
import feign.jackson.JacksonDecoder;
import feign.jackson.JacksonEncoder;

// No .retryer(..): Feign.builder() falls back to Retryer.Default, which
// makes 5 attempts per call.
public class PaymentsClientFactory {

    public PaymentsApi create() {
        return Feign.builder()
                .encoder(new JacksonEncoder())
                .decoder(new JacksonDecoder())
                .target(PaymentsApi.class, "http://payments:8080");
    }
}
