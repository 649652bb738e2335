package shop.orders;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestTemplate;

@Service
public class PaymentGateway {
    private final RestTemplate restTemplate;

    @Value("${payments.base-url}")
    private String paymentsUrl;

    @Value("${shipping.host}")
    private String shippingHost;

    // A SpEL default: Spring's placeholder parser counts the `{` of `#{`.
    @Value("${sessions.url:#{null}}")
    private String sessionsUrl;

    public PaymentGateway(RestTemplate restTemplate) {
        this.restTemplate = restTemplate;
    }

    public String pay(String order) {
        return restTemplate.postForObject(paymentsUrl + "/pay", order, String.class);
    }

    public String ship(String order) {
        return restTemplate.postForObject("http://" + shippingHost + ":8080/ship", order, String.class);
    }

    public String items() {
        return restTemplate.getForObject("${inventory.url}/items", String.class);
    }

    public String metrics() {
        return restTemplate.getForObject("${metrics.url}/push", String.class);
    }

    public String catalog() {
        // The key is set: its value wins over the default.
        return restTemplate.getForObject("${catalog.url:http://catalog-default:8080}/items", String.class);
    }

    public String audit() {
        return restTemplate.getForObject("${audit.url}/log", String.class);
    }
}
