package shop.billing;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.client.RestClient;

public class Ledger {
    @Value("${ledger.url}")
    private String ledgerUrl;

    @Value("${audit.url}")
    private String auditUrl;

    RestClient ledger() {
        return RestClient.builder().baseUrl(ledgerUrl).build();
    }

    RestClient audit() {
        return RestClient.builder().baseUrl(auditUrl).build();
    }
}
