package com.example.download;

import com.mongodb.MongoException;

// The catch leaves in both branches of its `if/else` (`return` when the
// download was cancelled, `throw e` otherwise): no failure goes round, so
// the loop is no retry (apache/jackrabbit-oak PipelinedMongoDownloadTask,
// fifteenth pass).
public class DownloadTask {

    private final RemoteCursorSource source;
    private volatile boolean cancelled;

    public DownloadTask(RemoteCursorSource source) {
        this.source = source;
    }

    public long download() throws MongoException {
        while (true) {
            try {
                return source.copyAll();
            } catch (MongoException e) {
                if (cancelled) {
                    return -1;
                } else {
                    throw e;
                }
            }
        }
    }
}
