package com.example.metadata;

import java.util.HashSet;
import java.util.Set;

// Failover over servers (apache/fluss MetadataUpdater
// .refreshClusterUntilAvailable): a failed server goes into the set of
// unavailable ones and the next pass asks another, until none is left.
// The caught exception is first unwrapped into a local (`t`), and only its
// retriable kinds go round: a predicate.
public class MetadataUpdater {
    private final Set<Integer> unavailableTabletServerIds = new HashSet<>();
    private Cluster cluster;

    public void refreshClusterUntilAvailable() {
        while (true) {
            ServerNode serverNode = pickAvailable(cluster, unavailableTabletServerIds);
            if (serverNode == null) {
                return;
            }
            try {
                cluster = sendMetadataRequest(cluster, serverNode);
                return;
            } catch (Exception e) {
                Throwable t = strip(e);
                if (t instanceof RetriableException || t instanceof TimeoutException) {
                    unavailableTabletServerIds.add(serverNode.id());
                } else {
                    throw new IllegalStateException("failed to refresh metadata", t);
                }
            }
        }
    }
}
