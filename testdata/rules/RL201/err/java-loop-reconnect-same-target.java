package com.example.store;

import java.io.IOException;

// The failed connection is closed and a new one opened to the same server:
// the same call against the same target, at once. Not failover.
public class StoreClient {

    private final String url;
    private Connection connection;

    public StoreClient(String url) {
        this.url = url;
    }

    public Row load(String key) throws IOException {
        Connection local = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                local = connection();
                return local.query(key);
            } catch (IOException e) {
                local.close();
                connection = null;
            }
        }
        throw new IOException("could not load " + key);
    }

    private synchronized Connection connection() throws IOException {
        if (connection == null) {
            connection = Connection.open(url);
        }
        return connection;
    }
}
