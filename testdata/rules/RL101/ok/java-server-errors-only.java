package com.example.accounts;

import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

public interface AccountsClient {

    @Retryable(retryFor = {HttpServerErrorException.class, ResourceAccessException.class},
            backoff = @Backoff(delay = 200, multiplier = 2, random = true))
    Account find(String id);
}
