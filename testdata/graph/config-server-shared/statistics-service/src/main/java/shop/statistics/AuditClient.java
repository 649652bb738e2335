package shop.statistics;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;

@FeignClient(url = "${audit.url}", name = "audit-client")
public interface AuditClient {
    @PostMapping("/events")
    void record(String event);
}
