# Only a failed fetch (no connection) is tried once more; the backend's
# own 503 is passed on, not retried.
vcl 4.1;

backend catalog {
    .host = "catalog";
    .port = "8080";
}

sub vcl_backend_error {
    if (bereq.retries < 1) {
        return (retry);
    }
}
