package com.example.zk;

import java.util.List;

// A catch that logs in again is a repair, but the catch-all beside it
// retries every other ZooKeeper failure at once (apache/amoro
// AmsThriftUrl.parserZookeeperUrlListForMasterSlaveMode): still a retry.
public class NodeLookup {
    private static final int MAX_RETRIES = 3;

    List<String> nodes(ZkClient zk, String path, Login login) {
        int retryCount = 0;
        while (retryCount < MAX_RETRIES) {
            try {
                return zk.getChildren(path);
            } catch (AuthFailedException authFailedException) {
                retryCount++;
                login.logout();
            } catch (Exception e) {
                retryCount++;
                if (retryCount >= MAX_RETRIES) {
                    throw new RuntimeException("failed to read " + path, e);
                }
            }
        }
        return null;
    }
}
