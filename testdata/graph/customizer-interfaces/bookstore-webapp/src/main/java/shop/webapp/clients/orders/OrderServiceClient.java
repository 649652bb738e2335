package shop.webapp.clients.orders;

import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;

public interface OrderServiceClient {
    @PostExchange("/orders/api/orders")
    String createOrder(@RequestHeader Map<String, ?> headers, @RequestBody String orderRequest);

    @GetExchange("/orders/api/orders/{orderNumber}")
    String getOrder(@RequestHeader Map<String, ?> headers, @PathVariable String orderNumber);
}
