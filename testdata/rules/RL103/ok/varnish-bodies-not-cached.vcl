# Bodies are not cached: Varnish cannot send a POST's body again ("Retry
# not possible, req.body not cached"), so only requests without a body
# are retried on 503.
vcl 4.1;

backend payments {
    .host = "payments";
    .port = "8080";
}

sub vcl_backend_response {
    if (beresp.status == 503 && bereq.retries < 2) {
        return (retry);
    }
}
