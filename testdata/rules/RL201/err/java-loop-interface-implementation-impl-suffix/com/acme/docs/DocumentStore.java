package com.acme.docs;

public interface DocumentStore {
    Document find(String id);
}
