package com.example.lookup;

import com.example.meta.Catalog;
import com.example.meta.EntryNotFoundException;
import com.example.meta.Table;

// The first lookup is scoped to a tenant; when it is not found the tenant
// is dropped (`tenant = null`) and the global entry is looked up instead.
// The second pass asks for another key (the setting reaches the call
// inside `new Key(tenant, ..)`): a fallback, not the same call again.
class TenantLookup {
    // What `Catalog.resolve(Key)` is handed.
    static final class Key {
        final String tenant;
        final String name;

        Key(String tenant, String name) {
            this.tenant = tenant;
            this.name = name;
        }
    }

    String resolveDoWhile(Catalog catalog, String tenant, String name) {
        String found = null;
        int passes = 0;
        int maxPasses = tenant == null ? 1 : 2;
        do {
            try {
                found = catalog.resolve(new Key(tenant, name));
                break;
            } catch (EntryNotFoundException e) {
                tenant = null;
            }
        } while (++passes < maxPasses);
        return found;
    }

    Boolean inheritedFlag(Catalog catalog, Table table) {
        String tenant = table.getTenant();
        Boolean flag = null;
        int retryCount = 0;
        while (retryCount++ < 2) {
            if (table.hasParent()) {
                String parentName = table.getParentName();
                try {
                    Table parent = catalog.table(new Key(tenant, parentName));
                    flag = parent.getFlag();
                    if (flag != null) {
                        return flag;
                    }
                } catch (EntryNotFoundException e) {
                    if (tenant != null) {
                        tenant = null;
                    } else {
                        System.err.println("no parent table " + parentName);
                    }
                }
            }
        }
        return flag;
    }
}
