package shop.orders;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "clients")
public record ClientProperties(
        Service inventory,
        Service shipping,
        String auditBaseUrl,
        Map<String, Service> partners) {

    public record Service(URI baseUrl, Duration timeout) {}
}
