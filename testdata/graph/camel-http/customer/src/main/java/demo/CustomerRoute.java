package demo;

import org.apache.camel.builder.RouteBuilder;

public class CustomerRoute extends RouteBuilder {

    @Override
    public void configure() throws Exception {
        rest("/").get()
            .route().routeId("root")
                .to("http4:preference:8080/?httpClient.connectTimeout=1000&bridgeEndpoint=true")
                .to("log:customer")
            .end();

        from("timer:audit?period=60000")
            .log("posting to http4:audit:9090 every minute")
            .toD("https:audit:9443/records/${header.id}")
            .to("direct:done");
    }
}
