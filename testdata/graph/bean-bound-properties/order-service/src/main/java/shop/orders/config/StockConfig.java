package shop.orders.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import shop.orders.props.LookupSettings;

@Configuration
public class StockConfig {

    @Bean
    @ConfigurationProperties(prefix = "stock.lookup")
    public LookupSettings lookupSettings() {
        return new LookupSettings();
    }
}
