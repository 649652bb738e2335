package shop.order.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "shipping")
public class ShippingDestinations {

    private String shippingServiceUrl;

    // Not an address: no call.
    private String region;

    public String getShippingServiceUrl() {
        return shippingServiceUrl;
    }
}
