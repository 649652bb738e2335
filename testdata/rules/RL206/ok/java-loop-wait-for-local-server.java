// A wait for a server this process has just started on this host, not a
// retry against a shared service (apache/pinot ZkStarter.startLocalZkServer):
// it connects to `localhost` until the server answers.
class ZkStarter {
    static final int DEFAULT_ZK_CLIENT_RETRIES = 10;

    static void startLocalZkServer(int port) throws Exception {
        startServerThread(port);
        // Wait until the ZK server is started
        for (int retry = 0; retry < DEFAULT_ZK_CLIENT_RETRIES; retry++) {
            try {
                ZkClient client = new ZkClient("localhost:" + port, 1000 * (DEFAULT_ZK_CLIENT_RETRIES - retry));
                client.waitUntilConnected(DEFAULT_ZK_CLIENT_RETRIES - retry, TimeUnit.SECONDS);
                closeAsync(client);
                break;
            } catch (Exception e) {
                if (retry >= DEFAULT_ZK_CLIENT_RETRIES - 1) {
                    throw e;
                }
                Thread.sleep(50L);
            }
        }
    }
}
