package io.kaas.broker;

import io.kaas.api.cluster.BrokerIdInUseException;
import io.kaas.api.plugin.PluginConfigException;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.plugins.BackendSelectionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kaas-server-start.sh} entry point: {@code [config-file] [--override key=value]...}. With no
 * file, {@code config/server.properties} is used if it exists, else the defaults. SIGTERM or SIGINT
 * drains, fsyncs and exits 0; a config or backend error prints one line to stderr and exits 1.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    /**
     * Netty's JFR events (buffer and chunk allocations) are off unless asked for with
     * {@code -Dio.netty.jfr.enabled=true}: the first one registered initialises JFR's event
     * metadata, which delays the first answered request by ~60 ms.
     */
    private static final String NETTY_JFR = "io.netty.jfr.enabled";

    private Main() {
    }

    public static void main(String[] args) {
        if (System.getProperty(NETTY_JFR) == null) {
            System.setProperty(NETTY_JFR, "false");
        }
        KaasBroker broker;
        try {
            broker = KaasBroker.start(BrokerConfig.fromArgs(args));
        } catch (ConfigException | BackendSelectionException | PluginConfigException | BrokerIdInUseException e) {
            // A broker with this node.id is live in the cluster: one line naming it and where it runs, as a config mistake.
            fail(e.getMessage());
            return;
        } catch (BindException e) {
            // The listener's address is taken or not ours: one line says which, as for a config mistake.
            fail(e.getMessage());
            return;
        } catch (IOException | UncheckedIOException e) {
            LOG.atError().setCause(e).log("start-up failed");
            fail("start-up failed: " + e.getMessage());
            return;
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).log("start-up failed");
            fail("start-up failed: " + e);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kaas-shutdown"));
        Signals.onTermination(() -> {
            broker.close();
            System.exit(0);
        });
        try {
            broker.awaitShutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            broker.close();
        }
    }

    private static void fail(String message) {
        System.err.println("kaas: " + message);
        System.exit(1);
    }
}
