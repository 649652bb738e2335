package shop.orders;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.client.RestClient;

public class Ledger {
    @Value("${ledger.url}")
    private String ledgerUrl;

    private final RestClient client = RestClient.create();

    public String entries() {
        return client.get().uri(ledgerUrl + "/entries").retrieve().body(String.class);
    }
}
