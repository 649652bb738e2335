package com.example.gateway;

import java.time.Duration;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;

// A Spring Cloud Gateway route built in Java, as eazybytes/microservices
// (7fa7d89, gatewayserver) writes it: the Retry filter's backoff doubles
// from 100 ms to 1 s and `setJitter(0.5)` spreads the retries of requests that
// failed together.
public class GatewayRoutes {

    @Bean
    public RouteLocator routes(RouteLocatorBuilder builder) {
        return builder.routes()
                .route(p -> p
                        .path("/bank/loans/**")
                        .filters(f -> f.rewritePath("/bank/loans/(?<segment>.*)", "/${segment}")
                                .retry(retryConfig -> retryConfig.setRetries(3)
                                        .setMethods(HttpMethod.GET)
                                        .setBackoff(Duration.ofMillis(100), Duration.ofMillis(1000), 2, true)
                                        .setJitter(0.5)))
                        .uri("lb://LOANS"))
                .build();
    }
}
