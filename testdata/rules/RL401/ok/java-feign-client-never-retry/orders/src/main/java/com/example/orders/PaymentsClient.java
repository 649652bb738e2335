package com.example.orders;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

// orders calls payments through this client, which does not retry.
@FeignClient(name = "payments")
public interface PaymentsClient {

    @PostMapping("/charges")
    Receipt charge(@RequestBody Charge charge);
}
