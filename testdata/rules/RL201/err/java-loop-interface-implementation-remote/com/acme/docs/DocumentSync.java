package com.acme.docs;

// The loop calls a project interface (`DocumentStore`): nothing in this
// file or the interface's shows a remote attempt, but its implementation
// in the scan does (`MongoDocumentStore.find` queries MongoDB), so the
// retry stays (apache/jackrabbit-oak `DocumentNodeStore`, lost at stop
// 44, sixteenth pass).
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
