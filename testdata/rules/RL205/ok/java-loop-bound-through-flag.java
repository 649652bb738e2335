package com.example.export;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

// The loop runs while `doRetry`; the catch counts the failures down and
// sets the flag from a comparison (`doRetry = (retryCount >= 0)`): the
// loop stops once the count runs out, as a `break` under that test would
// (apache/sqoop `SQLServerAsyncDBExecThread.write`, sixteenth pass).
class BatchWriter {
    private static final int RETRY_MAX = 3;

    private final FailureHandler failureHandler;
    private Connection conn;

    BatchWriter(FailureHandler failureHandler, Connection conn) {
        this.failureHandler = failureHandler;
        this.conn = conn;
    }

    void write(List<Row> rows) throws SQLException, IOException {
        int retryCount = RETRY_MAX;
        boolean doRetry = true;
        do {
            try {
                PreparedStatement stmt = conn.prepareStatement(Rows.insertSql(rows));
                stmt.executeBatch();
                doRetry = false;
            } catch (SQLException e) {
                if (failureHandler.canHandleFailure(e)) {
                    this.conn = failureHandler.recover();
                    Thread.sleep(1000);
                    --retryCount;
                    doRetry = (retryCount >= 0);
                } else {
                    throw new IOException("cannot recover", e);
                }
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
        } while (doRetry);
    }
}
