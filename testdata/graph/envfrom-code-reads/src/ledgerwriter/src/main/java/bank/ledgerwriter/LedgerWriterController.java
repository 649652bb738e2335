package bank.ledgerwriter;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestTemplate;

@RestController
public class LedgerWriterController {
    private final RestTemplate restTemplate = new RestTemplate();
    private final String balancesApiUri;

    public LedgerWriterController(
            @Value("http://${BALANCES_API_ADDR}/balances") String balancesApiUri) {
        this.balancesApiUri = balancesApiUri;
    }

    Integer balance(String account) {
        return restTemplate.getForObject(balancesApiUri + "/" + account, Integer.class);
    }
}
