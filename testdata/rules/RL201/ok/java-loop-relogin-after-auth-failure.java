package com.example.zk;

import javax.security.auth.Subject;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

// A repair, not a retry (apache/amoro AmsThriftUrl.parserZookeeperUrl):
// on an authentication failure the loop logs the thread's Kerberos
// identity out and asks again; every other failure leaves.
public class ServerLookup {
    private static final int MAX_RETRIES = 3;

    ServerInfo find(ZkClient zk, String path) {
        int retryCount = 0;
        while (retryCount < MAX_RETRIES) {
            try {
                return zk.readServerInfo(path);
            } catch (AuthFailedException authFailedException) {
                retryCount++;
                try {
                    Subject subject = Subject.getSubject(java.security.AccessController.getContext());
                    if (subject != null) {
                        new LoginContext("", subject).logout();
                    }
                } catch (LoginException e) {
                    System.err.println("failed to log out");
                }
            } catch (Exception e) {
                throw new RuntimeException("invalid url " + path, e);
            }
        }
        return null;
    }
}
