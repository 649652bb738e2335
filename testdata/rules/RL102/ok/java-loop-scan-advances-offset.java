package com.example.broker;

import java.util.List;

// A scan of the broker's own message store (apache/inlong tubemq
// BrokerAdminServlet.queryGroupStoredOffsets): each pass reads on from the
// offset the last read reached (`offset += result.lastReadOffset`), so a
// pass reads the next page, not the same call again.
public class OffsetQuery {
    void queryStoredOffsets(MessageStore store, String group, long requestOffset,
            int maxRetryCnt, StringBuilder out) {
        int qryRetryCount = 0;
        long offset = requestOffset;
        Throwable qryThrow;
        GetMessageResult result;
        boolean matched;
        do {
            qryThrow = null;
            try {
                result = store.getMessages(offset, group);
            } catch (Throwable e) {
                qryThrow = e;
                continue;
            }
            if (result.messages == null || result.messages.isEmpty()) {
                offset += result.lastReadOffset;
                continue;
            }
            matched = false;
            for (Message m : result.messages) {
                if (group.equals(m.group())) {
                    matched = true;
                    out.append(m.data());
                }
            }
            if (matched) {
                break;
            }
            offset += result.lastReadOffset;
        } while (++qryRetryCount < maxRetryCnt);
        if (qryThrow != null) {
            out.append(qryThrow.getMessage());
        }
    }
}
