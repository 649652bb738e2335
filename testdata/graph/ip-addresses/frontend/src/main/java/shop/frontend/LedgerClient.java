package shop.frontend;

import org.springframework.web.client.RestTemplate;

class LedgerClient {
    private final RestTemplate rest = new RestTemplate();

    String balances() {
        return rest.getForObject("http://10.96.0.12:8080/balances", String.class);
    }

    String audit() {
        return rest.getForObject("http://10.96.0.77:8080/audit", String.class);
    }

    String local() {
        return rest.getForObject("http://127.0.0.1:9000/health", String.class);
    }
}
