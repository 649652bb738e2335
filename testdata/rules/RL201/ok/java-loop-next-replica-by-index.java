package com.example.shuffle;

import java.util.List;

// Reading from the next replica (apache/uniffle
// MultiReplicaClientReadHandler.readShuffleData): a field index picks the
// handler (`handlers.get(readHandlerIndex)`) and the loop steps it after a
// failed or short read: failover over replicas, no delay due.
public class MultiReplicaReader {
    private final List<ReadHandler> handlers;
    private int readHandlerIndex;

    public MultiReplicaReader(List<ReadHandler> handlers) {
        this.handlers = handlers;
    }

    public Result readShuffleData() {
        ReadHandler handler;
        Result result = null;
        do {
            if (readHandlerIndex >= handlers.size()) {
                return result;
            }
            handler = handlers.get(readHandlerIndex);
            try {
                result = handler.readShuffleData();
            } catch (Exception e) {
                System.err.println("failed to read a replica: " + e);
            }
            if (result != null && !result.isEmpty()) {
                return result;
            } else {
                try {
                    Checks.checkProcessedBlockIds(result);
                    return result;
                } catch (ShuffleException e) {
                    System.err.println("read the next replica");
                }
                readHandlerIndex++;
            }
        } while (true);
    }
}
