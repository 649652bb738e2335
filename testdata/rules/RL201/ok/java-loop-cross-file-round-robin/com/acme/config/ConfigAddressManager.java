package com.acme.config;

import com.acme.http.AbstractAddressManager;
import java.util.List;

public class ConfigAddressManager extends AbstractAddressManager {
    public ConfigAddressManager(List<String> addresses) {
        super(addresses);
    }
}
