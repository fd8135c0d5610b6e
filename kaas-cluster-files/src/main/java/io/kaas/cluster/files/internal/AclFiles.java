package io.kaas.cluster.files.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The ACL bindings in one file, {@code acls.json}:
 * <pre>
 * {"acls": [{"resourceType": "TOPIC", "name": "orders", "patternType": "LITERAL", "principal": "User:alice",
 *            "host": "*", "operation": "WRITE", "permission": "ALLOW"}, …]}
 * </pre>
 * Loaded at open; every change rewrites the whole file atomically ({@link AtomicFiles}), so a change of many
 * bindings is all or nothing. Names are Kafka's enum names; a missing file is no ACLs; a damaged file fails
 * the open naming the file and what is wrong in it.
 */
final class AclFiles {
    static final String FILE = "acls.json";
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Comparator<AclBinding> ORDER = Comparator.comparing((AclBinding b) -> b.pattern().type())
            .thenComparing(b -> b.pattern().name()).thenComparing(b -> b.pattern().patternType())
            .thenComparing(b -> b.entry().principal().toString()).thenComparing(b -> b.entry().host())
            .thenComparing(b -> b.entry().operation()).thenComparing(b -> b.entry().permission());

    private AclFiles() {
    }

    /** The bindings of {@code file}, none if it does not exist. @throws ClusterStateException naming the file */
    static Set<AclBinding> load(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Set.of();
        }
        try {
            return read(bytes);
        } catch (IOException | RuntimeException e) {
            throw new ClusterStateException("Cannot read the ACLs from " + file + " (damaged; restore it from a backup "
                    + "or remove it to start without ACLs): " + e.getMessage(), e);
        }
    }

    /** Replaces {@code file} with {@code bindings}, atomically and durably. */
    static void store(Path file, Collection<AclBinding> bindings) throws IOException {
        AtomicFiles.write(file, write(bindings));
    }

    static byte[] write(Collection<AclBinding> bindings) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeArrayFieldStart("acls");
            for (AclBinding b : bindings.stream().sorted(ORDER).toList()) {
                g.writeStartObject();
                g.writeStringField("resourceType", b.pattern().type().name());
                g.writeStringField("name", b.pattern().name());
                g.writeStringField("patternType", b.pattern().patternType().name());
                g.writeStringField("principal", b.entry().principal().toString());
                g.writeStringField("host", b.entry().host());
                g.writeStringField("operation", b.entry().operation().name());
                g.writeStringField("permission", b.entry().permission().name());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @throws IOException saying which entry and field is missing or malformed */
    static Set<AclBinding> read(byte[] bytes) throws IOException {
        Set<AclBinding> bindings = new LinkedHashSet<>();
        try (JsonParser p = FACTORY.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            boolean seen = false;
            for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
                JsonToken token = p.nextToken();
                if (!field.equals("acls")) {
                    p.skipChildren();
                    continue;
                }
                if (token != JsonToken.START_ARRAY) {
                    throw new IOException("field 'acls' is not an array");
                }
                seen = true;
                int index = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (p.currentToken() != JsonToken.START_OBJECT) {
                        throw new IOException("acls[" + index + "] is not an object");
                    }
                    bindings.add(binding(fields(p, index), index));
                    index++;
                }
            }
            if (!seen) {
                throw new IOException("field 'acls' is missing");
            }
        }
        return Set.copyOf(bindings);
    }

    private static Map<String, String> fields(JsonParser p, int index) throws IOException {
        Map<String, String> fields = new HashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonToken token = p.nextToken();
            if (token == JsonToken.VALUE_STRING) {
                fields.put(name, p.getText());
            } else {
                p.skipChildren();
                fields.put(name, null);
            }
        }
        return fields;
    }

    private static AclBinding binding(Map<String, String> f, int index) throws IOException {
        try {
            ResourceType type = ResourceType.valueOf(text(f, "resourceType", index));
            PatternType patternType = PatternType.valueOf(text(f, "patternType", index));
            ResourcePattern pattern = new ResourcePattern(type, text(f, "name", index), patternType);
            KafkaPrincipal principal = KafkaPrincipal.parse(text(f, "principal", index));
            AccessControlEntry entry = new AccessControlEntry(principal, text(f, "host", index),
                    Operation.valueOf(text(f, "operation", index)),
                    AclPermissionType.valueOf(text(f, "permission", index)));
            return new AclBinding(pattern, entry);
        } catch (IllegalArgumentException e) {
            throw new IOException("acls[" + index + "]: " + e.getMessage(), e);
        }
    }

    private static String text(Map<String, String> fields, String field, int index) throws IOException {
        String value = fields.get(field);
        if (value == null) {
            throw new IOException("acls[" + index + "]: field '" + field + "' is missing or not a string");
        }
        return value;
    }
}
