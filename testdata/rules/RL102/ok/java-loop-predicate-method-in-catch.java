// A catch that sorts failures with a method of its own class (apache/pinot
// KafkaServerStartable.pullKafkaDockerImage): `!isTransientDockerPullError(e)`
// leaves, beside the attempt count in the same test.
class Images {
    void pull() throws Exception {
        Exception lastException = null;
        for (int attempt = 1; attempt <= DOCKER_PULL_RETRIES; attempt++) {
            try {
                runProcess(List.of("docker", "pull", IMAGE));
                return;
            } catch (Exception e) {
                lastException = e;
                if (!isTransientDockerPullError(e) || attempt == DOCKER_PULL_RETRIES) {
                    throw e;
                }
                Thread.sleep(DOCKER_PULL_RETRY_WAIT_MS);
            }
        }
        throw lastException;
    }

    private static boolean isTransientDockerPullError(Exception e) {
        String message = e.getMessage();
        return message != null && (message.contains("TLS handshake timeout") || message.contains("i/o timeout"));
    }
}
