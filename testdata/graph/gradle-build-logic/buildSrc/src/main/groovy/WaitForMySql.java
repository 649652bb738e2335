import java.sql.Connection;
import java.sql.DriverManager;
import org.springframework.web.client.RestTemplate;

// Gradle build logic: runs in the build, not in a service.
public class WaitForMySql {
  private final RestTemplate restTemplate = new RestTemplate();

  void waitForConnection() throws Exception {
    String url = System.getenv("SPRING_DATASOURCE_URL");
    Connection c = DriverManager.getConnection(url, "mysqluser", "mysqlpw");
    restTemplate.getForObject("http://schema-registry:8081/subjects", String.class);
  }
}
