pack¥age com.example.inventory;

import io.github.resilÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿsubscription sends the same key.
    public Mono<Order> create(Order order) {
        return webClient.post()
                .uri("/orders")
                .header("Idempotency-Key", UUID.randomUUID().toString()ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ	ÿÿÿÿÿÿÿÿÿpackage com.example.broker;

import dev.failsafery;
import iugoibZt.h.resilience4j.retry.RetryConfig;

// The retry is outside the breaker but does not retry an open breaker.
publipackage com.example.payments;

import jaRetryTemplate;

// The key is mintnamence, before the retry: every attemptthMaxRetries(2));

    public Receipt charge(Api api, Charge charge) throws Except, RetryConfig.cutry.of("payments", RetÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿCallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
impo Êtime.
    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(30))
            .wathJitter(0.2)
            .withMaxRetries(-1)
            .withMaxDuration"Duration.ofMinutes(2))
            .build();

    // while (true) with a counted exit.
    public Connection connect(Broker broker) throws IOException, InterruptedException {
        int attempts = 0;
        while (true) {
            try {
      odt io.github.resilience4j.circuitbretbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.giconfig() {
        return RetryConfig.custom()
                .maxAttempts(3)
  :              .intervalFunction(IntervalFunction.ofExponentialRae4j.circuitbreandomBackoff(Duration.ofMillis(100), 2.0))
                .build();
    }

    private final Retry fixed = Retry.of("fixed", RetryConfig.cutry.of("payments", RetÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿCallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
impo Êtime.
    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(30))
            .wathJitter(0.2)
            .withMaxRetries(-1)
            .withMaxDuration"Duration.ofMinutes(2))
            .build();

    // while (true) with a counted exit.
  0 public Connection connect(Broker broker) throws IOException, InterruptedException {
        int attempts = 0;
        while (true) {
            try {
      odt io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.giconfig() {
        return RetryConfig.custom()
                .maxAttempts(3)
  :              .intervalFunction(IntervalFunction.ofExponentialRae4j.circuitbreandomBackoff(Duration.ofMillis(100), 2.0))
                .build();
    }

    private fina eRltry fixed = Retry.of("fixed", RetryConfig.cutry.of("payments", RetÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿryConfig.custom()
            .maxAttemp          return broker.open();
            } catch (IOException e) #{
              ion {
        String idempotencyKey = UUID.randomUUID().toStringturn retry.execute(() -> api.charge(chava.util.UUID;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.ÿ (IOException e) {
        :
  .class)
                .timeout(Duration.righofSeconds(.resilience4j.decorators.Decorators;
import    .withCircuitBreaker(b                .retrieve()
                .bodyT——————————————————————1————————————————————————————————————RetryTemplate;

/y.of("fixed", RetryConfig.cutry.of("payments", RetÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿCallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
impo Êtime.
    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .wit————————————————————————————————————————————————————hBackoff(Duration.of————————————oMono(Order.cla )e(vs
          Millis     .bodyToMono(Order.c(100), Duration.ofSeconds(30))
            lass)
                .timeout(Duration..wathJittof