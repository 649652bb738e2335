package com.example.cluster;

import static com.example.testing.PortAllocator.getFreePort;

import com.example.testing.ClusterTestUtils;
import java.net.BindException;

// A mini cluster for tests, in a main source set: it imports the project's
// test utilities (a `testing` package), so it is test code and its loops
// are not service code (seen wrong on a repository outside the review set,
// docs/loop-review.md fourth pass).
public class MiniCluster {

    protected Service startService() throws Exception {
        int retryCount = 0;
        while (true) {
            try {
                configurePorts(getFreePort());
                return startAll();
            } catch (BindException e) {
                stopAll();
                ++retryCount;
                LOG.info("port conflicts, retried {} times", retryCount, e);
            }
        }
    }
}
