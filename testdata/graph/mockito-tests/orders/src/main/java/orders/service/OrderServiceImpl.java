package orders.service;

import org.springframework.stereotype.Service;
import org.springframework.web.client.RestTemplate;

@Service
public class OrderServiceImpl {

    private final RestTemplate restTemplate;

    public OrderServiceImpl(RestTemplate restTemplate) {
        this.restTemplate = restTemplate;
    }

    public String pay(String orderId) {
        return restTemplate.postForObject("http://payments:8080/api/v1/pay", orderId, String.class);
    }
}
