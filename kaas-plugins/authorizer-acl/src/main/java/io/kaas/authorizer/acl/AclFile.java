package io.kaas.authorizer.acl;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the ACL rules file (format in {@link io.kaas.authorizer.acl the package doc}) as the ACL bindings it
 * stands for: principal {@code *} is {@code User:*}, name {@code *} the literal wildcard, {@code prefix*} a
 * PREFIXED pattern, {@code cluster} the literal {@code kafka-cluster}, every host.
 */
final class AclFile {
    private AclFile() {
    }

    /**
     * The rules of {@code file}, in file order.
     *
     * @throws IOException naming the file (and the line, for a line that cannot be parsed)
     */
    static List<AclBinding> read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IOException("ACL file " + file.toAbsolutePath() + " (authorizer.acl.file) does not exist", e);
        }
        List<AclBinding> rules = new ArrayList<>();
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
    static AclBinding parse(String text) {
        String[] f = text.strip().split("\\s+");
        if (f.length != 4) {
            throw new IllegalArgumentException("expected 4 fields, found " + f.length + " in '" + text + "'");
        }
        AclPermissionType permission = permission(f[0]);
        KafkaPrincipal principal;
        if (f[1].equals("*")) {
            principal = AccessControlEntry.WILDCARD_PRINCIPAL;
        } else {
            int colon = f[1].indexOf(':');
            if (colon <= 0 || colon == f[1].length() - 1) {
                throw new IllegalArgumentException("principal '" + f[1] + "' is not <type>:<name> (e.g. User:alice) or *");
            }
            principal = KafkaPrincipal.parse(f[1]);
            if (principal.name().equals("*") && !principal.type().equals(KafkaPrincipal.USER_TYPE)) {
                throw new IllegalArgumentException("principal '" + f[1] + "': only User:* (or *) stands for every "
                        + "principal, as in Kafka");
            }
        }
        Operation op = operation(f[2]);
        String resource = f[3];
        int colon = resource.indexOf(':');
        ResourceType type = resourceType(colon < 0 ? resource : resource.substring(0, colon));
        String name = colon < 0 ? null : resource.substring(colon + 1);
        if (type == ResourceType.CLUSTER && (name == null || name.equals("*"))) {
            name = Action.CLUSTER_NAME;
        }
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("resource '" + resource + "' has no name (use " + resource
                    + (colon < 0 ? ":" : "") + "* for every name)");
        }
        boolean prefixed = !name.equals("*") && name.endsWith("*");
        ResourcePattern pattern = prefixed
                ? new ResourcePattern(type, name.substring(0, name.length() - 1), PatternType.PREFIXED)
                : new ResourcePattern(type, name, PatternType.LITERAL);
        return new AclBinding(pattern, new AccessControlEntry(principal, AccessControlEntry.WILDCARD_HOST, op,
                permission));
    }

    private static AclPermissionType permission(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "allow":
                return AclPermissionType.ALLOW;
            case "deny":
                return AclPermissionType.DENY;
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
                    + "'; known: topic, group, cluster, transactional-id, delegation-token, user");
        }
    }
}
