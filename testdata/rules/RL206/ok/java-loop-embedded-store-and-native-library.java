package com.example.kv;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

// Work inside this process (apache/fluss RocksDBWriteBatchWrapper.flush,
// RocksDBKvBuilder.ensureRocksDBIsLoaded): a write to the embedded RocksDB
// failing with `RocksDBException`, and loading a native library: no remote
// call is retried.
public class LocalKv {
    private static final int MAX_TRY_TIMES = 10;
    private RocksDB db;
    private WriteOptions options;
    private WriteBatch batch;

    public void flush() throws java.io.IOException {
        for (int tryTime = 0; tryTime < MAX_TRY_TIMES; tryTime++) {
            try {
                db.write(options, batch);
                batch.clear();
                return;
            } catch (RocksDBException e) {
                System.err.println("failed to flush, retrying " + tryTime);
            }
        }
        throw new java.io.IOException("failed to flush");
    }

    public void ensureLoaded(String folder) throws java.io.IOException {
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                NativeLibraryLoader.getInstance().loadLibrary(folder);
                RocksDB.loadLibrary();
                return;
            } catch (Throwable t) {
                System.err.println("loading attempt " + attempt + " failed");
            }
        }
        throw new java.io.IOException("could not load RocksDB");
    }
}
