package shop.webapp.clients.catalog;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.GetExchange;

public interface CatalogServiceClient {

    @GetExchange("/catalog/api/products")
    String getProducts(@RequestParam int page);

    @GetExchange("/catalog/api/products/{code}")
    String getProductByCode(@PathVariable String code);
}
