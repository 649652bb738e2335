package shop.order.client;

import io.github.resilience4j.retry.annotation.Retry;
import org.springframework.web.service.annotation.PostExchange;

public interface AuditClient {

    @PostExchange("/api/audit")
    @Retry(name = "audit")
    void record(String entry);
}
