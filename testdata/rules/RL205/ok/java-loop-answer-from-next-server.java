package com.example.rpc;

// Reconnecting: each pass picks the next server and connects to it, and a
// connection that comes back leaves. The call is handed a server chosen anew
// in the same pass: failover to another node, not the same call again (the
// shape of nacos' RpcClient.reconnect).
public class Reconnector {

    private volatile boolean shutdown;

    public Connection reconnect(ServerList servers) {
        while (!shutdown) {
            try {
                ServerInfo server = servers.next();
                Connection conn = connectToServer(server);
                if (conn != null) {
                    return conn;
                }
            } catch (Throwable t) {
                // try the next one
            }
        }
        return null;
    }

    private Connection connectToServer(ServerInfo server) {
        return null;
    }
}
