package com.example.orders;

import feign.FeignException;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClientResponseException;

public class StockClient {

    private final RestTemplate rest = new RestTemplate();
    private final InventoryApi inventory;
    private final ReactiveStock reactive;

    StockClient(InventoryApi inventory, ReactiveStock reactive) {
        this.inventory = inventory;
        this.reactive = reactive;
    }

    // A 429 goes round (the catch's `continue`); every other client error
    // leaves with the rethrow.
    String stock(String sku) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            try {
                return rest.getForObject("http://inventory/stock/" + sku, String.class);
            } catch (HttpClientErrorException e) {
                if (e.getStatusCode().value() == 429) {
                    Thread.sleep(1000);
                    continue;
                }
                throw e;
            }
        }
        return null;
    }

    // Feign: a 503 goes round.
    int reserve(String sku) throws InterruptedException {
        for (int attempt = 0; attempt < 4; attempt++) {
            try {
                return inventory.reserve(sku);
            } catch (FeignException e) {
                if (e.status() == 503) {
                    Thread.sleep(500);
                    continue;
                }
                throw e;
            }
        }
        return -1;
    }

    // WebClient: a 503 goes round.
    String price(String sku) throws InterruptedException {
        for (int attempt = 0; attempt < 4; attempt++) {
            try {
                return reactive.price(sku).block();
            } catch (WebClientResponseException e) {
                if (e.getRawStatusCode() == 503) {
                    Thread.sleep(500);
                    continue;
                }
                throw e;
            }
        }
        return null;
    }
}
