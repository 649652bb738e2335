package orders.service;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.when;

import org.junit.jupiter.api.Test;
import org.mockito.InjectMocks;
import org.mockito.Mock;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.RestTemplate;

class OrderServiceImplTest {

    @Mock
    private RestTemplate restTemplate;

    @InjectMocks
    private OrderServiceImpl service;

    // A retry written only for the test: not the service's.
    private final RetryTemplate retry = RetryTemplate.builder().maxAttempts(10).fixedBackoff(100).build();

    @Test
    void pays() {
        when(restTemplate.postForObject("http://payments-stub:9999/api/v1/pay", "o1", String.class))
                .thenReturn("ok");
        retry.execute(ctx -> restTemplate.getForObject("http://mock-ledger:1/entries", String.class));
        service.pay("o1");
    }
}
