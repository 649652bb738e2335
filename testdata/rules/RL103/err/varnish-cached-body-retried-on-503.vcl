# Request bodies are cached so that a fetch can be sent again, and every
# 503 of the payments backend is retried: a POST the backend already
# processed (a 503 from its sidecar after a reset) is sent once more.
vcl 4.1;
import std;

backend payments {
    .host = "payments";
    .port = "8080";
}

sub vcl_recv {
    std.cache_req_body(100KB);
    return (pass);
}

sub vcl_backend_response {
    if (beresp.status == 503 && bereq.retries < 2) {
        return (retry);
    }
}
