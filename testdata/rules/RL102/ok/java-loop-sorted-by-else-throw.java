package com.example.sorting;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;

// The catch sorts by the exception's class name and message and throws
// the rest (`else { throw e; }`): a retry predicate, not every error.
class SortedByName {
    interface Store {
        String read(String path) throws Exception;
        boolean exists(String path) throws Exception;
    }

    Optional<String> readChanging(Store store, String path) throws Exception {
        int reads = 0;
        Exception last = null;
        while (reads++ < 5) {
            try {
                return Optional.of(store.read(path));
            } catch (FileNotFoundException e) {
                return Optional.empty();
            } catch (Exception e) {
                if (!store.exists(path)) {
                    return Optional.empty();
                }
                if (e.getClass().getName().endsWith("ObjectChangedException")) {
                    last = e;
                } else if (e.getMessage() != null && e.getMessage().contains("has changed")) {
                    last = e;
                } else {
                    throw e;
                }
            }
        }
        throw last;
    }
}
