package shop.order.client;

import io.github.resilience4j.retry.annotation.Retry;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;

@FeignClient(name = "payment-client", url = "${payments.url}")
public interface PaymentClient {

    @PostMapping("/api/payments")
    @Retry(name = "payments")
    String pay(String order);
}
