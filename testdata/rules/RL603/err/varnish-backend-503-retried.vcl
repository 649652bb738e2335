# The cache sends every 503 the catalogue sheds back to it at once, up to
# four times (max_retries): nothing limits the retries as a whole.
vcl 4.1;

backend catalog {
    .host = "catalog";
    .port = "8080";
}

sub vcl_backend_response {
    if (beresp.status == 503) {
        return (retry);
    }
}
