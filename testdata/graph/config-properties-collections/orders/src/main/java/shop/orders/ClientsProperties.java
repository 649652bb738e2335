package shop.orders;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "clients")
public class ClientsProperties {
    private Map<String, URI> services = new HashMap<>();
    private List<String> peerUrls = new ArrayList<>();
    private Map<String, String> headers = new HashMap<>();
    private List<URI> mirrors = new ArrayList<>();

    public Map<String, URI> getServices() {
        return services;
    }

    public List<String> getPeerUrls() {
        return peerUrls;
    }
}
