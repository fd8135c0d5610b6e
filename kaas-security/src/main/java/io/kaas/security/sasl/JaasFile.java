package io.kaas.security.sasl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A JAAS configuration file, as a Kafka broker reads it when a mechanism has no
 * {@code listener.name.<l>.<mechanism>.sasl.jaas.config}: the file named by the system property
 * {@value #SYSTEM_PROPERTY}, its sections {@code Name { <login module entries> };}, of which a broker uses
 * {@code <listener lower case>.KafkaServer}, else {@code KafkaServer}. Entries are in the syntax of
 * {@link JaasConfig}; {@code //} and {@code /* *}{@code /} comments may stand between sections. Immutable.
 */
public final class JaasFile {

    /** The JDK's system property naming the JAAS file ({@code -Djava.security.auth.login.config=...}). */
    public static final String SYSTEM_PROPERTY = "java.security.auth.login.config";
    /** The section a Kafka broker reads. */
    public static final String SERVER_SECTION = "KafkaServer";

    private final Path file;
    private final Map<String, String> sections;

    private JaasFile(Path file, Map<String, String> sections) {
        this.file = file;
        this.sections = Map.copyOf(sections);
    }

    /**
     * The file named by {@value #SYSTEM_PROPERTY}, or empty when the property is not set.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or is malformed
     */
    public static Optional<JaasFile> fromSystemProperty() {
        String name = System.getProperty(SYSTEM_PROPERTY);
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        Path file = Path.of(name.startsWith("=") ? name.substring(1) : name);
        try {
            return Optional.of(parse(file, Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the JAAS file " + file + " (" + SYSTEM_PROPERTY + "): " + e);
        }
    }

    /** Parses {@code text}, the content of {@code file} (named in errors). */
    static JaasFile parse(Path file, String text) {
        Map<String, String> sections = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (true) {
            i = skipSpaceAndComments(text, i);
            if (i >= n) {
                break;
            }
            int nameStart = i;
            while (i < n && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '{') {
                i++;
            }
            String name = text.substring(nameStart, i);
            i = skipSpaceAndComments(text, i);
            if (name.isEmpty() || i >= n || text.charAt(i) != '{') {
                throw new IllegalArgumentException("JAAS file " + file + ": expected 'Name {' at character " + nameStart);
            }
            int bodyStart = ++i;
            char quote = 0;
            while (i < n && (quote != 0 || text.charAt(i) != '}')) {
                char c = text.charAt(i);
                if (quote != 0) {
                    if (c == '\\') {
                        i++;
                    } else if (c == quote) {
                        quote = 0;
                    }
                } else if (c == '"' || c == '\'') {
                    quote = c;
                }
                i++;
            }
            if (i >= n) {
                throw new IllegalArgumentException("JAAS file " + file + ": section " + name + " is not closed by '}'");
            }
            String body = text.substring(bodyStart, i);
            i = skipSpaceAndComments(text, i + 1);
            if (i >= n || text.charAt(i) != ';') {
                throw new IllegalArgumentException("JAAS file " + file + ": section " + name + " is not ended by '};'");
            }
            i++;
            if (sections.put(name, body) != null) {
                throw new IllegalArgumentException("JAAS file " + file + ": section " + name + " appears twice");
            }
        }
        return new JaasFile(file, sections);
    }

    private static int skipSpaceAndComments(String text, int i) {
        int n = text.length();
        while (i < n) {
            if (Character.isWhitespace(text.charAt(i))) {
                i++;
            } else if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        return i;
    }

    /**
     * The broker's section for {@code listenerName}: {@code <listener lower case>.KafkaServer}, else
     * {@code KafkaServer}, parsed; empty when the file has neither.
     *
     * @throws IllegalArgumentException naming the file and section when the section is malformed
     */
    public Optional<JaasConfig> serverSection(String listenerName) {
        String own = listenerName.toLowerCase(Locale.ROOT) + "." + SERVER_SECTION;
        String name = sections.containsKey(own) ? own : SERVER_SECTION;
        String body = sections.get(name);
        if (body == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(JaasConfig.parse(body));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("JAAS file " + file + ", section " + name + ": " + e.getMessage(), e);
        }
    }

    /** The file, for messages. */
    public Path file() {
        return file;
    }
}
