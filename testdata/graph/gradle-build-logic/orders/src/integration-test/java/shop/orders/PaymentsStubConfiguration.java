package shop.orders;

import org.springframework.web.client.RestTemplate;

public class PaymentsStubConfiguration {
  private final RestTemplate restTemplate = new RestTemplate();

  void stub() {
    restTemplate.getForObject("http://payments-stub:9999/pay/1", String.class);
  }
}
