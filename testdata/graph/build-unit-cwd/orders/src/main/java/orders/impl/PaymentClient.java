package orders.impl;

import org.springframework.web.client.RestTemplate;

public class PaymentClient {
    private final RestTemplate rest = new RestTemplate();

    public String pay(String id) {
        return rest.postForObject("http://payments:8080/pay/" + id, null, String.class);
    }
}
