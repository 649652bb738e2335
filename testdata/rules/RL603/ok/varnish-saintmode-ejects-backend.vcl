# The cache retries a 503 on another backend: saintmode takes the failing
# backend out for that object, and for every object once three are
# denylisted, so a shedding backend is not sent its requests back.
vcl 4.1;

import saintmode;
import directors;

backend catalog_a {
    .host = "catalog-a";
    .port = "8080";
}

backend catalog_b {
    .host = "catalog-b";
    .port = "8080";
}

sub vcl_init {
    new sm_a = saintmode.saintmode(catalog_a, 3);
    new sm_b = saintmode.saintmode(catalog_b, 3);
    new catalog = directors.round_robin();
    catalog.add_backend(sm_a.backend());
    catalog.add_backend(sm_b.backend());
}

sub vcl_backend_fetch {
    set bereq.backend = catalog.backend();
}

sub vcl_backend_response {
    if (beresp.status == 503) {
        saintmode.denylist(10s);
        return (retry);
    }
}
