package shop.orders;

import org.springframework.web.client.RestTemplate;

public class OrderService {
  private final RestTemplate restTemplate = new RestTemplate();

  public String pay(String id) {
    return restTemplate.getForObject("http://payments:8080/pay/" + id, String.class);
  }
}
