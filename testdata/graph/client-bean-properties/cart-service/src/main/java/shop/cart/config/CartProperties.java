package shop.cart.config;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

@Component
@ConfigurationProperties(prefix = "cart.clients")
public class CartProperties {
    private URI pricingServiceUrl;
    private Duration timeout;

    public URI getPricingServiceUrl() {
        return pricingServiceUrl;
    }

    public void setPricingServiceUrl(URI pricingServiceUrl) {
        this.pricingServiceUrl = pricingServiceUrl;
    }

    public Duration getTimeout() {
        return timeout;
    }
}
