package com.example.metadata;

// The caught exception unwrapped into a local and tested against a list of
// kinds that may go round (apache/fluss MetadataUpdater
// .tryToInitializeClusterWithRetries): `if (!(cause instanceof A || cause
// instanceof B) || retryCount >= max) throw e;` is a predicate.
public class Bootstrap {
    static Cluster initializeWithRetries(Gateway gateway, int maxRetryTimes) throws Exception {
        int retryCount = 0;
        while (retryCount <= maxRetryTimes) {
            try {
                return gateway.initialize();
            } catch (Exception e) {
                Throwable cause = strip(e);
                if (!(cause instanceof StaleMetadataException
                                || cause instanceof NetworkException)
                        || retryCount >= maxRetryTimes) {
                    throw e;
                }
                Thread.sleep((long) (100 * Math.pow(2, retryCount)));
                retryCount++;
            }
        }
        return null;
    }
}
