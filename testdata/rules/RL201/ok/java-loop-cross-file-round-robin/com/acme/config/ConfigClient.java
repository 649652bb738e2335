package com.acme.config;

import java.util.Map;

public interface ConfigClient {
    Map<String, Object> query(String address);
}
