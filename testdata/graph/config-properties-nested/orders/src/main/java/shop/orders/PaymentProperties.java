package shop.orders;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

@Component
@ConfigurationProperties("payment")
public class PaymentProperties {
    private final Gateway gateway = new Gateway();

    public Gateway getGateway() {
        return gateway;
    }

    public static class Gateway {
        private String endpointUrl;
        private int retries;

        public String getEndpointUrl() {
            return endpointUrl;
        }
    }
}
