package shop.bonus;

import org.springframework.web.client.RestTemplate;

public class OrderPoller {

    private final RestTemplate restTemplate = new RestTemplate();

    public String poll() {
        return restTemplate.getForObject("http://order:80/feed", String.class);
    }
}
