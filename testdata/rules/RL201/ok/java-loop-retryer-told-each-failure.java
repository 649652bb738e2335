package com.example.sdk;

import java.io.IOException;

// A retry object told of each failure (apache/shenyu
// AbstractShenyuSdkClient.execute, Feign's `Retryer` contract):
// `retryer.continueOrPropagate(e)` waits before the next attempt or throws
// once its attempts are spent, so the loop neither retries at once nor
// without a limit.
public class SdkClient {
    private final Retryer retryer;

    public SdkClient(Retryer retryer) {
        this.retryer = retryer;
    }

    public Response execute(Request request) throws IOException {
        Retryer retryer = this.retryer.instance();
        while (true) {
            try {
                return send(request);
            } catch (RetryableException e) {
                retryer.continueOrPropagate(e);
            }
        }
    }

    private Response send(Request request) throws IOException {
        return request.client().send(request);
    }
}
