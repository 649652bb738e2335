package com.example.accounts;

import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.ResourceAccessException;

public interface AccountsClient {

    // A 400/404 is retried like a timeout: the same bad request again.
    @Retryable(retryFor = {HttpClientErrorException.class, ResourceAccessException.class},
            backoff = @Backoff(delay = 200, multiplier = 2, random = true))
    Account find(String id);
}
