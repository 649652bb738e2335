package shop.orders.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;

@FeignClient(name = "catalog", url = "${orders.catalog-service-url}", path = "/catalog")
public interface CatalogClient {

    @GetMapping("/api/products/{code}")
    String getProduct(@PathVariable("code") String code);

    @PostMapping(value = "/api/products")
    String addProduct(String product);

    @RequestMapping(method = RequestMethod.GET, path = "/api/stock")
    String stock();
}
