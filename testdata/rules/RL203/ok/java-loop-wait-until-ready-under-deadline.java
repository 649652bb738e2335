package com.example.tables;

import com.example.store.StoreClient;
import com.example.store.StoreException;

// A method named for waiting until a state (`waitUntilTableReady`) that
// asks the store under a time cap and goes round while the table is not
// ready: a poll for a remote state, its fixed interval is the poll's
// period, not a retry's back-off (alibaba/DataX `OTSHelper`, sixteenth
// pass).
public class TableHelper {

    private static final long CHECK_INTERVAL_MILLIS = 100;

    public static boolean waitUntilTableReady(StoreClient store, String table, long maxWaitMillis)
            throws InterruptedException {
        long start = System.currentTimeMillis();
        while (System.currentTimeMillis() - start < maxWaitMillis) {
            try {
                store.getRange(table, 1);
                return true;
            } catch (StoreException ex) {
                if (!ex.getErrorCode().equals("TableNotReady")) {
                    throw ex;
                }
            }
            Thread.sleep(CHECK_INTERVAL_MILLIS);
        }
        return false;
    }
}
