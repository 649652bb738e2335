package com.example.storage;

import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestTemplate;

// Success tested on the call's own answer (`if (node != null) return node;`)
// and a failure swallowed by the catch: the call is sent again at once, for
// ever (the shape of the EBS re-mirroring storm of April 2011).
public class ReplicaFinder {

    private final RestTemplate cluster = new RestTemplate();

    public String findReplicaSpace(String volumeId) {
        while (true) {
            try {
                String node = cluster.getForObject("http://cluster/free-space?volume=" + volumeId, String.class);
                if (node != null) {
                    return node;
                }
            } catch (RestClientException e) {
                // search again
            }
        }
    }
}
