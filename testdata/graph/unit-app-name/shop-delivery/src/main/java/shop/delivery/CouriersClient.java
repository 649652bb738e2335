package shop.delivery;

import org.springframework.web.client.RestTemplate;

public class CouriersClient {
  private final RestTemplate restTemplate = new RestTemplate();

  public String assign(String id) {
    return restTemplate.getForObject("http://couriers:8080/assign/" + id, String.class);
  }
}
