package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.plugin.PluginConfig;
import java.io.File;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * A real ZooKeeper server on 127.0.0.1 (an ephemeral port) shared by the tests of one JVM; each test gets a chroot of
 * its own, so each starts on an empty tree. A tick of 100 ms lets sessions be as short as 200 ms.
 */
final class TestZooKeeper {
    /** The session timeout the tests use (the server allows 200 ms to 2 s with its 100 ms tick). */
    static final int SESSION_TIMEOUT_MS = 2000;

    private static final AtomicInteger CHROOTS = new AtomicInteger();
    private static TestingServer server;

    private TestZooKeeper() {
    }

    static synchronized TestingServer server() {
        if (server == null) {
            server = start(-1);
            TestingServer s = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    s.close();
                } catch (Exception e) {
                    // the JVM is ending
                }
            }));
        }
        return server;
    }

    /** A new server of its own (for tests that stop it), on {@code port} (-1: any). */
    static TestingServer start(int port) {
        try {
            File dir = Files.createTempDirectory("kaas-zk-").toFile();
            InstanceSpec spec = new InstanceSpec(dir, port, -1, -1, true, 1, 100, 0, Map.of(), "127.0.0.1");
            return new TestingServer(spec, true);
        } catch (Exception e) {
            throw new IllegalStateException("could not start a ZooKeeper server", e);
        }
    }

    /** A connect string with a chroot no other test uses. */
    static String newChroot() {
        return server().getConnectString() + "/kaas-test-" + CHROOTS.incrementAndGet();
    }

    static PluginConfig config(String connect) {
        return PluginConfig.of(Map.of(ZkConfig.CONNECT, connect, ZkConfig.SESSION_TIMEOUT, Integer.toString(SESSION_TIMEOUT_MS),
                ZkConfig.CONNECTION_TIMEOUT, Integer.toString(SESSION_TIMEOUT_MS)));
    }

    /**
     * Expires {@code store}'s session on the server, as the server does when it stops hearing from a broker: a second
     * client joins the same session (its id and password) and closes it. The store notices by itself.
     */
    static void expire(ZooKeeperClusterStore store) throws Exception {
        ZooKeeper zk = store.zooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(store.connectString(), SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, zk.getSessionId(), zk.getSessionPasswd());
        try {
            if (!connected.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("could not join session 0x" + Long.toHexString(zk.getSessionId()));
            }
        } finally {
            twin.close();
        }
    }
}
