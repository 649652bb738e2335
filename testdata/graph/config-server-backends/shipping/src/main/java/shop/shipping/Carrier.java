package shop.shipping;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.client.RestClient;

public class Carrier {
    @Value("${carrier.url}")
    private String carrierUrl;

    RestClient carrier() {
        return RestClient.builder().baseUrl(carrierUrl).build();
    }
}
