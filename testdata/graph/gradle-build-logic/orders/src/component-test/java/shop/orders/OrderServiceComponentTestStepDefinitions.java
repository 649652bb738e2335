package shop.orders;

import org.springframework.web.client.RestTemplate;

public class OrderServiceComponentTestStepDefinitions {
  private final RestTemplate restTemplate = new RestTemplate();

  String baseUrl(String host, int port, String path) {
    return String.format("http://%s:%s%s", host, port, path);
  }

  void orderIsCreated() {
    restTemplate.postForObject("http://orders-under-test:8080/orders", "{}", String.class);
  }
}
