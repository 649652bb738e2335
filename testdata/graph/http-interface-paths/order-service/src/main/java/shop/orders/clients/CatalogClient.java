package shop.orders.clients;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;

@HttpExchange("/catalog")
public interface CatalogClient {

    @GetExchange("/api/products/{code}")
    Product getProduct(@PathVariable String code);

    @GetExchange(url = "/api/products")
    Product[] getProducts();
}
