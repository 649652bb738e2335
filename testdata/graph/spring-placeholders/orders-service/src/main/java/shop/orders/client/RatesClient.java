package shop.orders.client;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

// `url` wins over `name`: the call goes to what `rates.url` holds.
@FeignClient(url = "${rates.url}", name = "rates-client")
public interface RatesClient {
    @GetMapping("/latest")
    String latest();
}
