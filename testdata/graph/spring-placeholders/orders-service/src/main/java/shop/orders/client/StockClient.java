package shop.orders.client;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

// `stock.url` is not set: the default is empty, and an empty `url` calls
// `name` through the load balancer.
@FeignClient(name = "stock-service", url = "${stock.url:}")
public interface StockClient {
    @GetMapping("/stock")
    String stock();
}
