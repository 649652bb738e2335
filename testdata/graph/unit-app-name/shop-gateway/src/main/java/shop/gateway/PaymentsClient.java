package shop.gateway;

import org.springframework.web.client.RestTemplate;

public class PaymentsClient {
  private final RestTemplate restTemplate = new RestTemplate();

  public String status(String id) {
    return restTemplate.getForObject("http://payments:8080/status/" + id, String.class);
  }
}
