package billing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.client.RestTemplate;

public class LedgerClient {

    private static final Logger LOGGER = LoggerFactory.getLogger(LedgerClient.class);

    private final RestTemplate restTemplate = new RestTemplate();

    // Before: http://old-ledger:9000/entries (moved, see the runbook).
    public String entries() {
        LOGGER.info("reading entries, see https://github.com/acme/billing/issues/12 for http://ledger:9000 outages");
        String body = restTemplate.getForObject("http://ledger:9000/entries", String.class);
        if (body == null) {
            throw new IllegalStateException("http://ledger:9000/entries answered nothing");
        }
        LOGGER.warn("http://audit-log:7000/ is not called, only named");
        return body;
    }
}
