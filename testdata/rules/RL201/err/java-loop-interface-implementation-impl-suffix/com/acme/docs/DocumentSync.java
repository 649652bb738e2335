package com.acme.docs;

// The loop calls a project interface (`DocumentStore`) whose only
// implementation in the scan is named with `Impl` after it
// (`DocumentStoreImpl`), not with a prefix: that implementation queries
// MongoDB, so the retry at once is reported (the sixteenth pass's
// leftover: an implementation named otherwise was not found).
public class DocumentSync {
    private final DocumentStore store;

    public DocumentSync(DocumentStore store) {
        this.store = store;
    }

    public Document read(String id) {
        while (true) {
            try {
                return store.find(id);
            } catch (DocumentStoreException e) {
                System.err.println("read failed, again: " + e);
            }
        }
    }
}
