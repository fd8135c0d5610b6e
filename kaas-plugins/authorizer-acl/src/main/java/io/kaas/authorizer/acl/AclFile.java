package io.kaas.authorizer.acl;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads the ACL rules file (format in {@link io.kaas.authorizer.acl the package doc}). */
final class AclFile {
    private AclFile() {
    }

    /**
     * The rules of {@code file}, in file order.
     *
     * @throws IOException naming the file (and the line, for a line that cannot be parsed)
     */
    static List<AclRule> read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IOException("ACL file " + file.toAbsolutePath() + " (authorizer.acl.file) does not exist", e);
        }
        List<AclRule> rules = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (text.isEmpty()) {
                continue;
            }
            try {
                rules.add(parse(text));
            } catch (IllegalArgumentException e) {
                throw new IOException("ACL file " + file.toAbsolutePath() + " line " + (i + 1) + ": " + e.getMessage()
                        + " (expected: allow|deny <principal|*> <operation|ALL> <resourceType>:<name|*|prefix*>)");
            }
        }
        return List.copyOf(rules);
    }

    /** Parses one rule, e.g. {@code allow User:alice WRITE topic:orders}. */
    static AclRule parse(String text) {
        String[] f = text.strip().split("\\s+");
        if (f.length != 4) {
            throw new IllegalArgumentException("expected 4 fields, found " + f.length + " in '" + text + "'");
        }
        boolean allow = permission(f[0]);
        String principalType = null;
        String principalName = null;
        if (!f[1].equals("*")) {
            int colon = f[1].indexOf(':');
            if (colon <= 0 || colon == f[1].length() - 1) {
                throw new IllegalArgumentException("principal '" + f[1] + "' is not <type>:<name> (e.g. User:alice) or *");
            }
            principalType = f[1].substring(0, colon);
            String name = f[1].substring(colon + 1);
            principalName = name.equals("*") ? null : name;
        }
        Operation op = operation(f[2]);
        String resource = f[3];
        int colon = resource.indexOf(':');
        ResourceType type = resourceType(colon < 0 ? resource : resource.substring(0, colon));
        String name = colon < 0 ? null : resource.substring(colon + 1);
        if (type == ResourceType.CLUSTER && (name == null || name.equals(Action.CLUSTER_NAME))) {
            name = "*";
        }
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("resource '" + resource + "' has no name (use " + resource
                    + (colon < 0 ? ":" : "") + "* for every name)");
        }
        boolean every = name.equals("*");
        boolean prefixed = !every && name.endsWith("*");
        String literal = every ? null : prefixed ? name.substring(0, name.length() - 1) : name;
        return new AclRule(allow, principalType, principalName, op, op.implied(), type, literal, prefixed);
    }

    private static boolean permission(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "allow":
                return true;
            case "deny":
                return false;
            default:
                throw new IllegalArgumentException("'" + s + "' is neither allow nor deny");
        }
    }

    private static Operation operation(String s) {
        try {
            return Operation.valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown operation '" + s + "'; known: " + List.of(Operation.values()));
        }
    }

    private static ResourceType resourceType(String s) {
        try {
            return ResourceType.valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown resource type '" + s
                    + "'; known: topic, group, cluster, transactional-id");
        }
    }
}
