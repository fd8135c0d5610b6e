package io.kaas.cluster.files.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;

/**
 * Who holds a data directory ({@link DirectoryLock}): the broker's node id, the host and process it runs in, and
 * since when. Written into the lock file as {@code {"nodeId", "host", "pid", "since"}} so that an operator (and a
 * refused second broker) can tell which process to look at.
 */
record LockHolder(int nodeId, String host, long pid, Instant since) {
    LockHolder {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(since, "since");
    }

    /** This process as broker {@code nodeId}, from now. */
    static LockHolder thisProcess(int nodeId) {
        return new LockHolder(nodeId, localHostName(), ProcessHandle.current().pid(), Instant.now());
    }

    /** "broker 1 (pid 1234 on host h)". */
    String describe() {
        return "broker " + nodeId + " (pid " + pid + " on host " + host + ")";
    }

    byte[] toJson() {
        return StateJson.write(g -> {
            g.writeNumberField("nodeId", nodeId);
            g.writeStringField("host", host);
            g.writeNumberField("pid", pid);
            g.writeStringField("since", since.toString());
        });
    }

    /** @throws IOException saying which field is missing or malformed (a crashed holder may leave anything) */
    static LockHolder fromJson(byte[] bytes) throws IOException {
        Map<String, Object> node = StateJson.read(bytes);
        try {
            return new LockHolder(StateJson.integer(node, "nodeId"), StateJson.text(node, "host"),
                    StateJson.longValue(node, "pid"), Instant.parse(StateJson.text(node, "since")));
        } catch (DateTimeParseException e) {
            throw new IOException("field 'since' is not an instant: " + e.getMessage(), e);
        }
    }

    /** The local host's name; {@code $HOSTNAME} when it cannot be resolved, "unknown" when that is unset too. */
    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env != null && !env.isBlank() ? env : "unknown";
        }
    }
}
