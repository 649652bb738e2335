package shop;

public class JpaConfig {
    public String url() {
        // DB_HOST, else `mysql`.
        return String.format("jdbc:mysql://%s/cities", System.getenv("DB_HOST") == null ? "mysql" : System.getenv("DB_HOST"));
    }
}
