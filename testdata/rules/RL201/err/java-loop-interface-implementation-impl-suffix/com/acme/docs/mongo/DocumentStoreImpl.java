package com.acme.docs.mongo;

import com.acme.docs.Document;
import com.acme.docs.DocumentStore;
import com.mongodb.client.MongoCollection;

public class DocumentStoreImpl implements DocumentStore {
    private final MongoCollection<org.bson.Document> nodes;

    public DocumentStoreImpl(MongoCollection<org.bson.Document> nodes) {
        this.nodes = nodes;
    }

    @Override
    public Document find(String id) {
        org.bson.Document d = nodes.find(new org.bson.Document("_id", id)).first();
        return d == null ? null : new Document(d.toJson());
    }
}
