// The `try` holds only the call; the success `break` comes after it,
// nested in the tests of the answer (apache/seatunnel SelectDB
// CopySQLUtil.copyFileToDatabase): an `IOException` or a refused commit
// goes round at once to the same host.
import java.io.IOException;

class CopySQL {
    void commit(String sql) throws IOException {
        int retry = 0;
        boolean success = false;
        CloseableHttpResponse response;
        while (retry++ <= maxRetries) {
            HttpPost post = buildPost(hostPort, sql);
            try {
                response = httpClient.execute(post);
            } catch (IOException e) {
                log.error("commit error", e);
                continue;
            }
            int statusCode = response.getStatusLine().getStatusCode();
            if (statusCode != 307) {
                log.warn("commit failed with status {}", statusCode);
            } else if (response.getEntity() != null) {
                success = handleCommitResponse(EntityUtils.toString(response.getEntity()));
                if (success) {
                    break;
                } else {
                    log.warn("commit failed, retry again");
                }
            }
        }
        if (!success) {
            throw new IllegalStateException("commit failed");
        }
    }
}
