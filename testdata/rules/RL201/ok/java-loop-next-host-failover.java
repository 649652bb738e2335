package com.example.pd;

// Failover over the configured hosts (apache/incubator-hugegraph
// PDClient.newLeaderStub, AbstractClient.resetStub): each pass takes
// `proxy.nextHost()` and asks that one; no delay is due between hosts,
// and it retries no host.
public class LeaderFinder {
    private final HostProxy proxy;

    public LeaderFinder(HostProxy proxy) {
        this.proxy = proxy;
    }

    String newLeaderStub() {
        String leaderHost = "";
        for (int i = 0; i < proxy.getHostCount(); i++) {
            String host = proxy.nextHost();
            ManagedChannel channel = getChannel(host);
            Stub stub = getStub(channel);
            try {
                String leaderIp = getLeaderIp(stub);
                if (!leaderIp.equalsIgnoreCase(host)) {
                    leaderHost = leaderIp;
                    proxy.set(getStub(channel));
                } else {
                    proxy.set(stub);
                    leaderHost = host;
                }
                proxy.setLeader(leaderIp);
                break;
            } catch (Exception e) {
                System.err.println("connect to " + host + " failed: " + e.getMessage());
            }
        }
        return leaderHost;
    }
}
