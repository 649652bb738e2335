package com.acme.config;

import java.util.Map;

// Each pass asks the address manager for an address: it steps an index
// over the servers (in its superclass, another file), so a failed pass
// tries the next server. Failover, no wait needed.
public class ConfigLoader {
    private final ConfigAddressManager addressManager;
    private final ConfigClient client;

    public ConfigLoader(ConfigAddressManager addressManager, ConfigClient client) {
        this.addressManager = addressManager;
        this.client = client;
    }

    public Map<String, Object> firstLoad() {
        for (int i = 0; i < 3; ) {
            String address = addressManager.address();
            try {
                return client.query(address);
            } catch (Exception e) {
                if (i == 2) {
                    throw e;
                }
                System.err.println("config query failed on " + address + ", retrying");
            }
            i++;
        }
        return Map.of();
    }
}
