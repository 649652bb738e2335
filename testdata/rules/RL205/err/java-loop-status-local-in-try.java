// The outcome the call returned, kept in a local and tested inside the
// `try` (`Status s = cli.addPeer(..); if (s.isOk()) return;`): a failed
// status goes round like an exception, for as long as the node runs,
// every second (nacos's JRaftServer.registerSelfToCluster has this shape).
class ClusterJoin {
    private volatile boolean isShutdown;

    void registerSelf(String group, PeerId self, Configuration conf) {
        while (!isShutdown) {
            try {
                Status status = cliService.addPeer(group, conf, self);
                if (status.isOk()) {
                    return;
                }
                log.warn("failed to join the cluster, retry...");
            } catch (Exception e) {
                log.error("failed to join the cluster, retry...", e);
            }
            ThreadUtils.sleep(1_000L);
        }
    }
}
