# `saintmode.blacklist` with no saintmode director: the vmod logs
# "Saintmode is not configured" and does nothing, so every 503 goes back
# to the same backend, up to four times.
vcl 4.1;

import saintmode;

backend catalog {
    .host = "catalog";
    .port = "8080";
}

sub vcl_backend_response {
    if (beresp.status == 503) {
        saintmode.blacklist(10s);
        return (retry);
    }
}
