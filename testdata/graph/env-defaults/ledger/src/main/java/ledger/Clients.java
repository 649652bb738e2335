package ledger;

import java.util.Optional;

public class Clients {
    // AUDIT_URL, else the audit service.
    static final String AUDIT = Optional.ofNullable(System.getenv("AUDIT_URL")).orElse("http://audit:8080");
    // RATES_HOST, else the rates service.
    static final String RATES = "http://" + System.getenv().getOrDefault("RATES_HOST", "rates") + ":8080";
}
