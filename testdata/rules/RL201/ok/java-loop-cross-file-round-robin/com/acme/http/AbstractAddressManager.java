package com.acme.http;

import java.util.ArrayList;
import java.util.List;

public abstract class AbstractAddressManager {
    private final List<String> addresses;
    private int index;

    protected AbstractAddressManager(List<String> addresses) {
        this.addresses = new ArrayList<>(addresses);
    }

    public String address() {
        return current(addresses);
    }

    private String current(List<String> from) {
        index++;
        if (index >= from.size()) {
            index = 0;
        }
        return from.get(index);
    }
}
