package shop.statistics;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(url = "${rates.url}", name = "rates-client")
public interface ExchangeRatesClient {
    @GetMapping("/latest")
    String latest();
}
