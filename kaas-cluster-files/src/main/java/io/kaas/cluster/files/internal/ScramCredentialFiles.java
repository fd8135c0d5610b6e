package io.kaas.cluster.files.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every SCRAM credential in one file, {@code scram-credentials.json}, so that a change of several users
 * is one atomic replacement:
 * <pre>
 * {"credentials": [{"user", "mechanism", "salt", "storedKey", "serverKey", "iterations"}]}
 * </pre>
 * salt and keys in base64, sorted by user then mechanism. Loaded at open; a damaged file is refused
 * naming it. Writers call {@link #alter} under the store's lock; it re-reads the file first, so a change
 * another broker made since is kept.
 */
final class ScramCredentialFiles {
    static final String FILE = "scram-credentials.json";
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Comparator<ScramCredentialRecord> ORDER =
            Comparator.comparing(ScramCredentialRecord::user).thenComparing(ScramCredentialRecord::mechanism);

    private final Path file;
    /** By user, then mechanism; immutable, replaced whole after each durable write. */
    private volatile Map<String, Map<String, ScramCredentialRecord>> byUser;

    private ScramCredentialFiles(Path file, Map<String, Map<String, ScramCredentialRecord>> byUser) {
        this.file = file;
        this.byUser = byUser;
    }

    /** @throws ClusterStateException naming the file if it is unreadable or damaged */
    static ScramCredentialFiles open(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        return new ScramCredentialFiles(file, load(file));
    }

    int userCount() {
        return byUser.size();
    }

    Collection<ScramCredentialRecord> all() {
        List<ScramCredentialRecord> out = new ArrayList<>();
        byUser.values().forEach(m -> out.addAll(m.values()));
        return out;
    }

    Collection<ScramCredentialRecord> ofUser(String user) {
        return List.copyOf(byUser.getOrDefault(user, Map.of()).values());
    }

    /** Refuses a call that names one credential twice, before the lock is taken. */
    static void check(Collection<ScramCredentialRecord> upserts, Collection<ScramCredentialRef> deletions) {
        Set<ScramCredentialRef> named = new HashSet<>();
        for (ScramCredentialRecord r : upserts) {
            if (!named.add(r.ref())) {
                throw new IllegalArgumentException("SCRAM credential " + r.mechanism() + " of user '" + r.user()
                        + "' is named twice");
            }
        }
        for (ScramCredentialRef ref : deletions) {
            if (!named.add(ref)) {
                throw new IllegalArgumentException("SCRAM credential " + ref.mechanism() + " of user '" + ref.user()
                        + "' is named twice");
            }
        }
    }

    /** Under the store's lock: re-reads the file, applies the changes, writes it durably, then swaps memory. */
    void alter(Collection<ScramCredentialRecord> upserts, Collection<ScramCredentialRef> deletions) throws IOException {
        Map<String, Map<String, ScramCredentialRecord>> current = load(file);
        Map<String, Map<String, ScramCredentialRecord>> updated = new LinkedHashMap<>();
        current.forEach((user, m) -> updated.put(user, new LinkedHashMap<>(m)));
        for (ScramCredentialRef ref : deletions) {
            Map<String, ScramCredentialRecord> m = updated.get(ref.user());
            if (m != null) {
                m.remove(ref.mechanism());
                if (m.isEmpty()) {
                    updated.remove(ref.user());
                }
            }
        }
        for (ScramCredentialRecord r : upserts) {
            updated.computeIfAbsent(r.user(), u -> new LinkedHashMap<>()).put(r.mechanism(), r);
        }
        Map<String, Map<String, ScramCredentialRecord>> frozen = freeze(updated);
        if (frozen.isEmpty()) {
            AtomicFiles.delete(file);
        } else {
            AtomicFiles.write(file, write(frozen));
        }
        byUser = frozen;
    }

    private static Map<String, Map<String, ScramCredentialRecord>> freeze(Map<String, Map<String, ScramCredentialRecord>> m) {
        Map<String, Map<String, ScramCredentialRecord>> out = new LinkedHashMap<>();
        m.forEach((user, byMechanism) -> out.put(user, Map.copyOf(byMechanism)));
        return Map.copyOf(out);
    }

    private static Map<String, Map<String, ScramCredentialRecord>> load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            Map<String, Map<String, ScramCredentialRecord>> out = new LinkedHashMap<>();
            for (ScramCredentialRecord r : read(Files.readAllBytes(file))) {
                if (out.computeIfAbsent(r.user(), u -> new LinkedHashMap<>()).put(r.mechanism(), r) != null) {
                    throw new IOException(r.mechanism() + " of user '" + r.user() + "' appears twice");
                }
            }
            return freeze(out);
        } catch (IOException e) {
            throw new ClusterStateException("Corrupt SCRAM credential file " + file + ": " + e.getMessage(), e);
        }
    }

    static byte[] write(Map<String, Map<String, ScramCredentialRecord>> byUser) {
        List<ScramCredentialRecord> sorted = new ArrayList<>();
        byUser.values().forEach(m -> sorted.addAll(m.values()));
        sorted.sort(ORDER);
        Base64.Encoder b64 = Base64.getEncoder();
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeArrayFieldStart("credentials");
            for (ScramCredentialRecord r : sorted) {
                g.writeStartObject();
                g.writeStringField("user", r.user());
                g.writeStringField("mechanism", r.mechanism());
                g.writeStringField("salt", b64.encodeToString(r.salt()));
                g.writeStringField("storedKey", b64.encodeToString(r.storedKey()));
                g.writeStringField("serverKey", b64.encodeToString(r.serverKey()));
                g.writeNumberField("iterations", r.iterations());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @throws IOException saying what is missing or malformed */
    static List<ScramCredentialRecord> read(byte[] bytes) throws IOException {
        List<ScramCredentialRecord> out = new ArrayList<>();
        boolean sawCredentials = false;
        try (JsonParser p = FACTORY.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken t = p.nextToken();
                if (!name.equals("credentials")) {
                    p.skipChildren();
                    continue;
                }
                if (t != JsonToken.START_ARRAY) {
                    throw new IOException("field 'credentials' is not an array");
                }
                sawCredentials = true;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (p.currentToken() != JsonToken.START_OBJECT) {
                        throw new IOException("an entry of 'credentials' is not an object");
                    }
                    out.add(credential(p));
                }
            }
        }
        if (!sawCredentials) {
            throw new IOException("field 'credentials' is missing");
        }
        return out;
    }

    private static ScramCredentialRecord credential(JsonParser p) throws IOException {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            switch (t) {
                case VALUE_STRING -> fields.put(name, p.getText());
                case VALUE_NUMBER_INT -> fields.put(name, p.getNumberType() == JsonParser.NumberType.INT
                        ? (Object) p.getIntValue() : p.getText());
                default -> {
                    p.skipChildren();
                    fields.put(name, t.toString());
                }
            }
        }
        String user = text(fields, "user");
        String mechanism = text(fields, "mechanism");
        if (!(fields.get("iterations") instanceof Integer iterations)) {
            throw new IOException("field 'iterations' of user '" + user + "' is missing or not an integer");
        }
        try {
            return new ScramCredentialRecord(new ScramCredentialRef(user, mechanism), bytes(fields, "salt", user),
                    bytes(fields, "storedKey", user), bytes(fields, "serverKey", user), iterations);
        } catch (IllegalArgumentException e) {
            throw new IOException("credential " + mechanism + " of user '" + user + "': " + e.getMessage(), e);
        }
    }

    private static String text(Map<String, Object> fields, String field) throws IOException {
        if (!(fields.get(field) instanceof String value)) {
            throw new IOException("field '" + field + "' of a credential is missing or not a string");
        }
        return value;
    }

    private static byte[] bytes(Map<String, Object> fields, String field, String user) throws IOException {
        try {
            return Base64.getDecoder().decode(text(fields, field));
        } catch (IllegalArgumentException e) {
            throw new IOException("field '" + field + "' of user '" + user + "' is not base64");
        }
    }
}
