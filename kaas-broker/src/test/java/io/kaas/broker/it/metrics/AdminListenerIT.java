package io.kaas.broker.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.config.ConfigException;
import io.kaas.broker.it.TestBroker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** admin.listener's bad input: a taken port, a bad value, none, and a malformed HTTP request. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminListenerIT {

    @TempDir
    Path dir;

    @Test
    void aTakenPortFailsStartUpNamingTheKey() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> TestBroker.builder(dir)
                    .config("admin.listener", "http://127.0.0.1:" + taken.getLocalPort()).start())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("admin.listener")
                .hasMessageContaining(":" + taken.getLocalPort());
        }
        // The endpoint binds while the backends open: the failed start released the data directory's lock and left
        // no broker registered, so the next start on it works.
        assertThat(dir.resolve("data").resolve("__cluster")).exists();
        try (TestBroker broker = TestBroker.builder(dir).config("admin.listener", "http://127.0.0.1:0").start()) {
            assertThat(broker.broker.adminPort()).isPositive();
            broker.createTopic("after-a-failed-start", 1);
        }
    }

    @Test
    void aBadValueFailsStartUpWithOneLine() {
        assertThatThrownBy(() -> TestBroker.builder(dir).config("admin.listener", "9644").start())
            .isInstanceOf(ConfigException.class)
            .hasMessage("Invalid value for config 'admin.listener': '9644': expected http://HOST:PORT or none");
    }

    @Test
    void noneServesNoEndpoint() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("admin.listener", "none").start()) {
            assertThat(broker.broker.adminPort()).isEqualTo(-1);
            broker.createTopic("still-serves", 1);
        }
    }

    @Test
    void aMalformedRequestIsAnswered400() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).start();
             Socket s = new Socket(InetAddress.getLoopbackAddress(), broker.broker.adminPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write("NOT AN HTTP REQUEST\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 400");
        }
    }
}
