package shop.orders;

import org.springframework.web.client.RestTemplate;

public class PaymentsClient {
    private final RestTemplate rest = new RestTemplate();

    public String pay(String id) {
        return rest.getForObject("http://payments:8080/pay/" + id, String.class);
    }
}
