package hudson.plugins.swarm;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;

public class Client {
    private final int retryInterval = 10;

    void run(String master) throws InterruptedException {
        while (true) {
            try {
                HttpURLConnection c = (HttpURLConnection) new URL(master + "/plugin/swarm/slaveInfo").openConnection();
                c.setRequestMethod("GET");
                c.connect();
                if (c.getResponseCode() == 200) {
                    connectAgent(c);
                    return;
                }
            } catch (IOException e) {
                System.err.println("Failed to connect to " + master + ", retrying in " + retryInterval + "s");
            }
            Thread.sleep(retryInterval * 1000L);
        }
    }

    private void connectAgent(HttpURLConnection c) {}
}
