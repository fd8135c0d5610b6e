package io.kaas.security.oauth;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** A minimal HTTP endpoint on 127.0.0.1 serving a JWKS document (one request per connection), counting requests. */
final class JwksServer implements AutoCloseable {

    private final ServerSocket socket;
    private final Thread thread;
    final AtomicReference<String> body = new AtomicReference<>("{\"keys\":[]}");
    final AtomicInteger requests = new AtomicInteger();

    private final String scheme;

    JwksServer() throws IOException {
        this(null);
    }

    /** Over TLS with {@code tls}'s server certificate when not null. */
    JwksServer(javax.net.ssl.SSLContext tls) throws IOException {
        scheme = tls == null ? "http" : "https";
        socket = tls == null ? new ServerSocket(0, 50, InetAddress.getLoopbackAddress())
            : tls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "test-jwks-server");
        thread.setDaemon(true);
        thread.start();
    }

    String url() {
        return scheme + "://127.0.0.1:" + socket.getLocalPort() + "/jwks";
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket c = socket.accept()) {
                c.setSoTimeout(5000);
                BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.US_ASCII));
                for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                    // headers ignored
                }
                requests.incrementAndGet();
                byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
                OutputStream out = c.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + b.length
                    + "\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(b);
                out.flush();
            } catch (IOException e) {
                // closed, or a client gone: next
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
