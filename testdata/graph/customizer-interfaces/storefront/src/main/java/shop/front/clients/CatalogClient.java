package shop.front.clients;

import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;

@HttpExchange("/catalog/api")
public interface CatalogClient {
    @GetExchange("/products")
    String products();
}
