package com.example.web;

import java.io.IOException;
import java.net.BindException;

// Starting the embedded web server: a port in use moves to the next one
// (`listener.setPort(port += 1)`), so each pass binds another port; a
// scan over ports, not a retry of a remote operation (apache/tajo
// HttpServer, sixteenth pass).
public class WebServer {

    private final Listener listener;
    private final JettyServer webServer;
    private final boolean findPort;

    public WebServer(Listener listener, JettyServer webServer, boolean findPort) {
        this.listener = listener;
        this.webServer = webServer;
        this.findPort = findPort;
    }

    public void start() throws IOException {
        int port = listener.getPort();
        while (true) {
            try {
                listener.open();
                webServer.getConnectors();
                webServer.start();
                break;
            } catch (IOException ex) {
                if (!(ex instanceof BindException) || !findPort) {
                    throw ex;
                }
            }
            listener.setPort(port += 1);
        }
    }
}
