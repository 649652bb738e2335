package ebs.node;

import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestTemplate;

public class ReMirror {

    private final RestTemplate cluster = new RestTemplate();

    /** After losing its replica, a node searches the cluster for free space until it finds some. */
    public String findReplicaSpace(String volumeId) {
        while (true) {
            try {
                String node = cluster.getForObject("http://ebs-cluster/free-space?volume=" + volumeId, String.class);
                if (node != null) {
                    return node;
                }
            } catch (RestClientException e) {
                // no space yet, search again
            }
        }
    }
}
