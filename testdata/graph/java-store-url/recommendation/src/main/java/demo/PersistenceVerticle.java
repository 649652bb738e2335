package demo;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.jdbc.JDBCClient;
import io.vertx.redis.client.Redis;

public class PersistenceVerticle extends AbstractVerticle {

    private static final String URL = "jdbc:postgresql://postgres:5432/recommendation";
    private static final String CACHE = "redis://cache:6379";
    private static final String TEST_DB = "jdbc:h2:mem:test";

    private JDBCClient jdbcClient;

    @Override
    public void start() {
        jdbcClient = JDBCClient.createShared(vertx, new JsonObject()
            .put("url", URL)
            .put("driver_class", "org.postgresql.Driver"));
        Redis.createClient(vertx, CACHE).connect();
    }
}
