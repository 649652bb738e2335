package shop.account;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

public class AccountClients {
    // The config server serves `rates.url` to statistics-service only.
    @FeignClient(url = "${rates.url}", name = "rates")
    interface Rates {
        @GetMapping("/latest")
        String latest();
    }

    @FeignClient(url = "${audit.url}", name = "audit")
    interface Audit {
        @GetMapping("/events")
        String events();
    }
}
