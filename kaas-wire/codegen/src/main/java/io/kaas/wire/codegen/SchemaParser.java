package io.kaas.wire.codegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Reads one Kafka protocol schema file (JSON with whole-line {@code //} comments) into a {@link MessageSpec}. */
public final class SchemaParser {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SchemaParser() {
    }

    public static MessageSpec parse(Path file) throws IOException {
        String json = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
            .filter(line -> !line.trim().startsWith("//"))
            .collect(Collectors.joining("\n"));
        return parse(MAPPER.readTree(json));
    }

    public static MessageSpec parse(JsonNode root) {
        Versions valid = Versions.parse(text(root, "validVersions"), Versions.NONE);
        Versions flexible = Versions.parse(text(root, "flexibleVersions"), Versions.NONE);
        List<String> listeners = new ArrayList<>();
        root.path("listeners").forEach(n -> listeners.add(n.asText()));
        List<StructSpec> common = new ArrayList<>();
        for (JsonNode s : root.path("commonStructs")) {
            common.add(new StructSpec(s.get("name").asText(), Versions.parse(text(s, "versions"), Versions.ALL),
                fields(s.path("fields"))));
        }
        return new MessageSpec(
            root.get("name").asText(),
            root.get("type").asText(),
            root.has("apiKey") ? root.get("apiKey").asInt() : -1,
            valid, flexible,
            root.path("latestVersionUnstable").asBoolean(false),
            listeners,
            fields(root.path("fields")),
            common);
    }

    private static List<FieldSpec> fields(JsonNode array) {
        List<FieldSpec> out = new ArrayList<>();
        for (JsonNode f : array) {
            Versions versions = Versions.parse(text(f, "versions"), Versions.NONE);
            out.add(new FieldSpec(
                f.get("name").asText(),
                f.get("type").asText(),
                versions,
                Versions.parse(text(f, "nullableVersions"), Versions.NONE),
                f.has("tag") ? Versions.parse(text(f, "taggedVersions"), versions) : Versions.NONE,
                f.has("tag") ? f.get("tag").asInt() : -1,
                Versions.parse(text(f, "flexibleVersions"), null),
                text(f, "default"),
                f.path("ignorable").asBoolean(false),
                f.has("fields") ? fields(f.get("fields")) : null));
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
