package io.kaas.broker.it.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;

/**
 * A TCP relay on 127.0.0.1 (an ephemeral port) to a broker's port, which can be frozen: bytes are then held, not
 * relayed, and the sockets stay open, so the broker behind it is live (its ZooKeeper session goes on) but answers
 * nothing through it, as a broker whose network hangs. Daemon threads; {@link #close()} closes every socket.
 */
final class FreezableProxy implements AutoCloseable {

    private final ServerSocket server;
    private final IntSupplier target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    /** @param target the port to relay to, read at each connection (the broker starts after the proxy) */
    FreezableProxy(IntSupplier target) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        Thread accept = new Thread(this::accept, "freezable-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return server.getLocalPort();
    }

    void freeze() {
        frozen = true;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                Socket out = new Socket(InetAddress.getLoopbackAddress(), target.getAsInt());
                sockets.add(in);
                sockets.add(out);
                relay(in, out);
                relay(out, in);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection end
            }
        }
    }

    private void relay(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream i = from.getInputStream(); OutputStream o = to.getOutputStream()) {
                int n;
                while ((n = i.read(buffer)) >= 0) {
                    while (frozen && !from.isClosed()) {
                        Thread.sleep(20);
                    }
                    o.write(buffer, 0, n);
                    o.flush();
                }
            } catch (IOException | InterruptedException e) {
                // a side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "freezable-proxy-relay");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(FreezableProxy::closeQuietly);
    }
}
