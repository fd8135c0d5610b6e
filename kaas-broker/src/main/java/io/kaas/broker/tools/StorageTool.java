package io.kaas.broker.tools;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.plugin.PluginConfigException;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.plugins.BackendCatalog;
import io.kaas.plugins.BackendSelection;
import io.kaas.plugins.BackendSelectionException;
import io.kaas.plugins.PluginsDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code kaas-storage.sh}, Kafka's {@code kafka-storage format} for kaas: prepares a broker's data directory
 * before its first start, optionally with SCRAM credentials, so a SASL/SCRAM listener has a first user
 * (the one that then manages the others with {@code kafka-configs}).
 * <pre>
 * format --config &lt;server.properties&gt; [--add-scram 'SCRAM-SHA-256=[name=alice,password=alice-secret]']...
 *        [--ignore-formatted]
 * </pre>
 * A data directory that already holds anything is "formatted": refused (exit 1), or skipped with
 * {@code --ignore-formatted} (exit 0), as Kafka does. kaas makes its cluster id itself, so Kafka's
 * {@code --cluster-id} is refused with a message. Every bad input prints one line to stderr and exits 1.
 */
public final class StorageTool {
    static final String USAGE = "USAGE: kaas-storage.sh format --config <server.properties> "
            + "[--add-scram 'SCRAM-SHA-256=[name=<user>,password=<password>]']... [--ignore-formatted]";

    private StorageTool() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the tool; returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            return format(parse(args), out);
        } catch (UsageException e) {
            err.println("kaas-storage: " + e.getMessage());
            if (e.showUsage) {
                err.println(USAGE);
            }
            return e.exitCode;
        } catch (ConfigException | BackendSelectionException | PluginConfigException e) {
            err.println("kaas-storage: " + e.getMessage());
            return 1;
        } catch (IOException | RuntimeException e) {
            err.println("kaas-storage: formatting failed: " + e.getMessage());
            return 1;
        }
    }

    private record Options(Path config, List<ScramCredentialRecord> credentials, boolean ignoreFormatted) {
    }

    private static final class UsageException extends Exception {
        final int exitCode;
        final boolean showUsage;

        UsageException(String message, int exitCode, boolean showUsage) {
            super(message);
            this.exitCode = exitCode;
            this.showUsage = showUsage;
        }
    }

    private static Options parse(String[] args) throws UsageException {
        if (args.length == 0) {
            throw new UsageException("no command given", 1, true);
        }
        if (args[0].equals("-h") || args[0].equals("--help")) {
            throw new UsageException("formats a data directory", 0, true);
        }
        if (!args[0].equals("format")) {
            throw new UsageException("unknown command '" + args[0] + "'; kaas-storage supports 'format'", 1, true);
        }
        Path config = null;
        boolean ignoreFormatted = false;
        List<ScramCredentialRecord> credentials = new ArrayList<>();
        Set<ScramCredentialRef> named = new HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--config", "-c" -> config = Path.of(value(args, ++i, arg));
                case "--add-scram", "-S" -> {
                    String spec = value(args, ++i, arg);
                    ScramCredentialRecord credential;
                    try {
                        credential = ScramArgument.parse(spec);
                    } catch (ScramArgument.InvalidScramArgument e) {
                        throw new UsageException(e.getMessage(), 1, false);
                    }
                    if (!named.add(credential.ref())) {
                        throw new UsageException("--add-scram names " + credential.mechanism() + " of user '"
                                + credential.user() + "' twice", 1, false);
                    }
                    credentials.add(credential);
                }
                case "--ignore-formatted", "-g" -> ignoreFormatted = true;
                case "--cluster-id", "-t" -> throw new UsageException("kaas makes its cluster id itself at the first "
                        + "start; --cluster-id is not supported", 1, false);
                default -> throw new UsageException("unknown option '" + arg + "'", 1, true);
            }
        }
        if (config == null) {
            throw new UsageException("--config is required", 1, true);
        }
        return new Options(config, credentials, ignoreFormatted);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value", 1, true);
        }
        return args[i];
    }

    private static int format(Options options, PrintStream out) throws IOException, UsageException {
        if (!Files.isRegularFile(options.config())) {
            throw new UsageException("config file not found: " + options.config(), 1, false);
        }
        BrokerConfig config = BrokerConfig.load(options.config(), Map.of());
        Path dataDir = config.logDir().toAbsolutePath().normalize();
        if (formatted(dataDir)) {
            if (options.ignoreFormatted()) {
                out.println("Data directory " + dataDir + " is already formatted: left as it is.");
                return 0;
            }
            throw new UsageException("Data directory " + dataDir + " is already formatted. Use --ignore-formatted to "
                    + "ignore it.", 1, false);
        }
        BackendCatalog catalog = BackendCatalog.discover(PluginsDirectory.resolve(config.originalValue("plugins.dir")),
                BackendSelection.of(Map.of("cluster.store", config.clusterStore())));
        ClusterStateStoreProvider provider = catalog.select(ClusterStateStoreProvider.class, "cluster.store",
                config.clusterStore());
        Files.createDirectories(dataDir);
        try (ClusterStateStore store = provider.open(new ClusterStoreContext(dataDir,
                config.backendConfig("cluster." + provider.name() + "."), config.nodeId()))) {
            store.alterScramCredentials(options.credentials(), List.of());
            out.println("Formatted data directory " + dataDir + " (cluster store '" + provider.name() + "', cluster id "
                    + store.clusterId() + ")" + describe(options.credentials()));
        }
        return 0;
    }

    private static String describe(List<ScramCredentialRecord> credentials) {
        if (credentials.isEmpty()) {
            return ".";
        }
        List<String> parts = new ArrayList<>();
        credentials.forEach(c -> parts.add(c.mechanism() + " of " + c.user() + " (" + c.iterations() + " iterations)"));
        return " with SCRAM credentials: " + String.join(", ", parts) + ".";
    }

    /** Whether the data directory exists and holds anything. */
    private static boolean formatted(Path dataDir) throws IOException {
        if (!Files.isDirectory(dataDir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dataDir)) {
            return entries.findAny().isPresent();
        }
    }
}
