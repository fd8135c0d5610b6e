package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.plugin.PluginConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A parsed {@code zookeeper.connect}: {@code host:port[,host:port...][/chroot]}, as Kafka reads it. A host without a
 * port uses ZooKeeper's 2181; the chroot, when given, starts with '/', does not end with one and has no empty, "." or
 * ".." segment.
 *
 * @param hosts  the servers, {@code host:port} each (IPv6 hosts in brackets)
 * @param chroot the chroot, if any
 */
record ConnectString(List<String> hosts, Optional<String> chroot) {
    static final int DEFAULT_PORT = 2181;

    ConnectString {
        hosts = List.copyOf(hosts);
    }

    /** The servers without the chroot, for ZooKeeper's client. */
    String servers() {
        return String.join(",", hosts);
    }

    /** The whole string, as ZooKeeper's client takes it. */
    String full() {
        return servers() + chroot.orElse("");
    }

    @Override
    public String toString() {
        return full();
    }

    /** @throws PluginConfigException naming {@code key} if {@code value} is not a connect string */
    static ConnectString parse(String key, String value) {
        String s = value == null ? "" : value.trim();
        if (s.isEmpty()) {
            throw bad(key, value, "it is empty");
        }
        int slash = s.indexOf('/');
        String hostPart = slash < 0 ? s : s.substring(0, slash);
        Optional<String> chroot = slash < 0 ? Optional.empty() : Optional.of(s.substring(slash));
        List<String> hosts = new ArrayList<>();
        for (String h : hostPart.split(",", -1)) {
            hosts.add(hostAndPort(key, value, h.trim()));
        }
        chroot.ifPresent(c -> checkChroot(key, value, c));
        return new ConnectString(hosts, chroot);
    }

    private static String hostAndPort(String key, String value, String h) {
        if (h.isEmpty()) {
            throw bad(key, value, "a server is missing (an empty entry between commas)");
        }
        String host;
        String port;
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            if (close < 0) {
                throw bad(key, value, "'" + h + "' opens an IPv6 address with '[' and does not close it");
            }
            host = h.substring(0, close + 1);
            String rest = h.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw bad(key, value, "'" + h + "' has something other than :port after the address");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int colon = h.lastIndexOf(':');
            host = colon < 0 ? h : h.substring(0, colon);
            port = colon < 0 ? null : h.substring(colon + 1);
            if (host.contains(":")) {
                throw bad(key, value, "'" + h + "' has more than one ':' (put an IPv6 address in brackets)");
            }
        }
        if (host.isEmpty() || host.equals("[]")) {
            throw bad(key, value, "'" + h + "' has no host");
        }
        if (host.chars().anyMatch(Character::isWhitespace)) {
            throw bad(key, value, "'" + h + "' has a blank in its host");
        }
        if (port == null) {
            return host + ":" + DEFAULT_PORT;
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw bad(key, value, "the port of '" + h + "' is not a number");
        }
        if (p < 1 || p > 65535) {
            throw bad(key, value, "the port of '" + h + "' is not between 1 and 65535");
        }
        return host + ":" + p;
    }

    private static void checkChroot(String key, String value, String chroot) {
        if (!chroot.startsWith("/")) {
            throw bad(key, value, "the chroot '" + chroot + "' does not start with '/'");
        }
        if (chroot.endsWith("/")) {
            throw bad(key, value, "the chroot '" + chroot + "' ends with '/'");
        }
        for (String segment : chroot.substring(1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw bad(key, value, "the chroot '" + chroot + "' has an empty, '.' or '..' segment");
            }
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || c >= 0xfff0) {
                    throw bad(key, value, "the chroot '" + chroot + "' has a character ZooKeeper refuses in a path");
                }
            }
        }
    }

    private static PluginConfigException bad(String key, String value, String why) {
        return new PluginConfigException(key, "expected host:port[,host:port...][/chroot], got '" + value + "': " + why);
    }
}
