package com.example.cli;

import java.io.Console;

// Each pass asks the user for new credentials before connecting again
// (apache/lens `LensClientSingletonWrapper.getClient`, seventeenth pass):
// a wrong password is fixed by the user's next answer, not by waiting. The
// loop repeats no failed call with the same inputs, so no delay is due
// between the passes.
public class ClientHolder {

    private static final int MAX_RETRIES = 3;

    private ServerClient client;

    public ServerClient getClient() {
        if (client == null) {
            for (int i = 0; i < MAX_RETRIES; i++) {
                try {
                    client = new ServerClient(Credentials.prompt());
                    break;
                } catch (ServerConnectionException e) {
                    System.err.println("login failed: " + e.getMessage());
                    if (i == MAX_RETRIES - 1) {
                        throw e;
                    }
                }
            }
        }
        return client;
    }

    public ServerClient login(ServerClient.Factory factory) {
        Console console = System.console();
        while (true) {
            String user = console.readLine("user: ");
            char[] password = console.readPassword("password: ");
            try {
                return factory.connect(user, password);
            } catch (ServerConnectionException e) {
                console.printf("username/password combination incorrect%n");
            }
        }
    }
}
