package com.example.sink;

import java.util.HashMap;
import java.util.Map;

// Waiting for another operator to create the table (apache/paimon
// CdcRecordStoreMultiWriteOperator.getTable): only "does not exist" goes
// round, with a wait; the table's absence is a state that ends when it is
// created, not a failed call.
public class TableCache {
    private final Map<String, Table> tables = new HashMap<>();
    private final Catalog catalog;

    public TableCache(Catalog catalog) {
        this.catalog = catalog;
    }

    Table getTable(String id) throws InterruptedException {
        Table table = tables.get(id);
        if (table == null) {
            while (true) {
                try {
                    table = catalog.getTable(id);
                    tables.put(id, table);
                    break;
                } catch (Catalog.TableNotExistException e) {
                    // not created yet by the upstream operator
                }
                Thread.sleep(500);
            }
        }
        return table;
    }
}
