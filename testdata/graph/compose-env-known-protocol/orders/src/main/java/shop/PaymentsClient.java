package shop;

import org.springframework.web.client.RestTemplate;

public class PaymentsClient {
    private final RestTemplate rest = new RestTemplate();

    public String pay(String order) {
        return rest.postForObject("http://payments:8080/pay", order, String.class);
    }
}
