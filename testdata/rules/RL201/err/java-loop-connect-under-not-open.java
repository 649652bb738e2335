// The attempt and its success exit sit under an `if` in the try (apache/
// seatunnel Doris BackendClient.open): `if (!transport.isOpen()) {
// transport.open(); break; }`. A failed connect is caught and tried again
// at once.
class BackendClient {
    private TTransport transport;
    private boolean isConnected;

    private void open() {
        TException ex = null;
        for (int attempt = 0; attempt < retries; ++attempt) {
            try {
                transport = new TSocket(host, port, socketTimeout, connectTimeout);
                client = new Client(factory.getProtocol(transport));
                if (!transport.isOpen()) {
                    transport.open();
                    isConnected = true;
                    break;
                }
            } catch (TTransportException e) {
                log.warn("connect to {} failed", host, e);
                ex = e;
            }
        }
        if (!isConnected) {
            throw new IllegalStateException("cannot connect", ex);
        }
    }
}
