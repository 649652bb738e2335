package com.example.orders;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

// orders calls payments through this client; its retryer is set in
// application.yml, and the mesh retries the same call again.
@FeignClient(name = "payments")
public interface PaymentsClient {

    @PostMapping("/charges")
    Receipt charge(@RequestBody Charge charge);
}
