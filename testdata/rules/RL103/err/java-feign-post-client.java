package com.example.orders;

import feign.Feign;
import feign.Headers;
import feign.RequestLine;
import feign.Retryer;

// A read timeout on POST /charges is an IOException, which Feign retries:
// the charge may be made twice.
public class ChargesClientFactory {

    interface ChargesApi {
        @RequestLine("POST /charges")
        @Headers("Content-Type: application/json")
        Receipt charge(Charge charge);
    }

    public ChargesApi create() {
        return Feign.builder()
                .retryer(new Retryer.Default(100, 1000, 3))
                .target(ChargesApi.class, "http://payments:8080");
    }
}
