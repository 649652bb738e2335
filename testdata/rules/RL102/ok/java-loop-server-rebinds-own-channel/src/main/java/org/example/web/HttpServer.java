// A server class binding its own listening channel again after a failure:
// `closeChannels()` and `bind()` are methods of this process's server
// (`HttpServer`), closing and binding its own listening channels, not
// calls to a remote one. A fixed pause between local
// re-binds needs no jitter (no other client is in step with it), and what
// fails is a local port, not a request to another service.
package org.example.web;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;

public class HttpServer {
    private static final int RECOVERING = 3;
    private final Object lock = new Object();
    private volatile int state;
    private final List<Channel> channels = new ArrayList<>();
    private final List<SocketAddress> addresses = new ArrayList<>();

    public void recover() {
        synchronized (lock) {
            while (state == RECOVERING) {
                try {
                    closeChannels();
                    bind();
                    setStarted();
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Throwable th) {
                    // sleep for 5s before the next attempt
                    try {
                        lock.wait(TimeUnit.SECONDS.toMillis(5));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    void closeChannels() throws InterruptedException {
        for (Channel channel : channels) {
            channel.close().sync();
        }
        channels.clear();
    }

    private void bind() throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap();
        for (SocketAddress address : addresses) {
            channels.add(b.bind(address).sync().channel());
        }
    }

    private void setStarted() {}
}
