vcl 4.1;
import std;

backend articles {
    .host = "articles.news.svc.cluster.local";
    .port = "8080";
    .first_byte_timeout = 30s;
}

sub vcl_recv {
    if (req.url ~ "^/api/") {
        std.cache_req_body(64KB);
        return (pass);
    }
}

sub vcl_backend_response {
    if (beresp.status >= 500 && beresp.status <= 504) {
        return (retry);
    }
    set beresp.ttl = 60s;
}

sub vcl_backend_error {
    return (retry);
}
