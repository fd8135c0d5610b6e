package io.kaas.security.sasl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code sasl.jaas.config} value in Kafka's syntax: one or more entries
 * {@code <LoginModule class> required|requisite|sufficient|optional key="value" key2=value2;}. Values are
 * bare words or quoted with {@code "} or {@code '} (backslash escapes {@code \n \t \r \b \f}, any other
 * escaped character stands for itself); {@code //} and {@code /* *}{@code /} comments are skipped, as
 * Kafka's parser does. Immutable. {@link #toString()} never shows option values (they hold passwords).
 */
public final class JaasConfig {

    /** The config key, read with the mechanism's prefix: {@code listener.name.<l>.<mechanism>.sasl.jaas.config}. */
    public static final String KEY = "sasl.jaas.config";

    private final List<JaasModule> modules;

    private JaasConfig(List<JaasModule> modules) {
        this.modules = List.copyOf(modules);
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException with Kafka's wording when the text is not a JAAS config with at
     *                                  least one login module (the message never quotes an option's value)
     */
    public static JaasConfig parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("Login module not specified in JAAS config");
        }
        Tokens tokens = new Tokens(text);
        List<JaasModule> modules = new ArrayList<>();
        for (Token t = tokens.next(); t != null; t = tokens.next()) {
            modules.add(entry(t, tokens));
        }
        if (modules.isEmpty()) {
            throw new IllegalArgumentException("Login module not specified in JAAS config");
        }
        return new JaasConfig(modules);
    }

    /**
     * The login module {@code loginModule} configures the mechanism with, looked up as a Kafka broker does: the
     * mechanism's {@code listener.name.<l>.<mechanism>.sasl.jaas.config} (exactly one module), else the entry of
     * that login module in the JAAS file's {@code <listener>.KafkaServer} or {@code KafkaServer} section
     * ({@link JaasFile}, {@code -Djava.security.auth.login.config}).
     *
     * @throws IllegalArgumentException naming the key or the file when neither configures it, or it is malformed
     *                                  or holds several modules
     */
    public static JaasModule of(MechanismSettings settings, String loginModule) {
        String key = settings.describe(KEY);
        String text = settings.mechanismValue(KEY);
        if (text != null && !text.isBlank()) {
            try {
                return parse(text).single();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
            }
        }
        Optional<JaasFile> file = JaasFile.fromSystemProperty();
        String section = settings.listenerName().toLowerCase(java.util.Locale.ROOT) + "." + JaasFile.SERVER_SECTION;
        if (file.isEmpty()) {
            throw new IllegalArgumentException(key + " is not set, and there is no JAAS file (" + JaasFile.SYSTEM_PROPERTY
                + "): SASL mechanism " + settings.mechanism() + " on listener " + settings.listenerName()
                + " needs its JAAS config");
        }
        JaasConfig config = file.get().serverSection(settings.listenerName()).orElseThrow(() ->
            new IllegalArgumentException("Could not find a '" + JaasFile.SERVER_SECTION + "' or '" + section
                + "' entry in the JAAS configuration " + file.get().file() + " (and " + key + " is not set)"));
        return config.modules().stream().filter(m -> m.loginModule().equals(loginModule)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("the JAAS configuration " + file.get().file()
                + " configures no " + loginModule + " for SASL mechanism " + settings.mechanism() + " on listener "
                + settings.listenerName() + " (and " + key + " is not set)"));
    }

    private static JaasModule entry(Token first, Tokens tokens) {
        if (first.word() == null) {
            throw new IllegalArgumentException("Login module class expected in JAAS config, found '" + first.symbol() + "'");
        }
        Token flagToken = tokens.next();
        if (flagToken == null) {
            throw new IllegalArgumentException("Login module control flag not specified in JAAS config");
        }
        JaasModule.Flag flag = flagToken.word() == null ? null : JaasModule.Flag.parse(flagToken.word());
        if (flag == null) {
            throw new IllegalArgumentException("Invalid login module control flag '"
                + (flagToken.word() == null ? String.valueOf(flagToken.symbol()) : flagToken.word()) + "' in JAAS config");
        }
        Map<String, String> options = new LinkedHashMap<>();
        Token t = tokens.next();
        while (t != null && !t.is(';')) {
            String key = t.word();
            if (key == null) {
                throw new IllegalArgumentException("Option name expected in JAAS config, found '" + t.symbol() + "'");
            }
            Token eq = tokens.next();
            Token value = eq != null && eq.is('=') ? tokens.next() : null;
            if (value == null || value.word() == null) {
                throw new IllegalArgumentException("Value not specified for key '" + key + "' in JAAS config");
            }
            options.put(key, value.word());
            t = tokens.next();
        }
        if (t == null) {
            throw new IllegalArgumentException("JAAS config entry not terminated by semi-colon");
        }
        return new JaasModule(first.word(), flag, options);
    }

    /** The login modules, in order. */
    public List<JaasModule> modules() {
        return modules;
    }

    /**
     * The one module of a broker's {@code listener.name.<l>.<mechanism>.sasl.jaas.config}, as Kafka requires.
     *
     * @throws IllegalArgumentException if there are several
     */
    public JaasModule single() {
        if (modules.size() != 1) {
            throw new IllegalArgumentException("JAAS config property contains " + modules.size()
                + " login modules, should be 1 module");
        }
        return modules.get(0);
    }

    @Override
    public String toString() {
        return modules.toString();
    }

    /** A word (bare or quoted), or a one-character symbol. */
    private record Token(String word, char symbol) {
        boolean is(char c) {
            return word == null && symbol == c;
        }
    }

    /** The lexer: bare words of letters, digits and {@code . - _ $}; quoted strings; symbols; comments skipped. */
    private static final class Tokens {
        private final String s;
        private int i;

        Tokens(String s) {
            this.s = s;
        }

        Token next() {
            skipBlanksAndComments();
            if (i >= s.length()) {
                return null;
            }
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                return new Token(quoted(c), '\0');
            }
            if (isWordChar(c)) {
                int start = i;
                while (i < s.length() && isWordChar(s.charAt(i))) {
                    i++;
                }
                return new Token(s.substring(start, i), '\0');
            }
            i++;
            return new Token(null, c);
        }

        private String quoted(char quote) {
            int start = i;
            i++;
            StringBuilder out = new StringBuilder();
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == quote) {
                    return out.toString();
                }
                if (c == '\\') {
                    if (i >= s.length()) {
                        break;
                    }
                    char e = s.charAt(i++);
                    out.append(switch (e) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        default -> e;
                    });
                } else {
                    out.append(c);
                }
            }
            throw new IllegalArgumentException("Unterminated quoted value starting at character " + start + " in JAAS config");
        }

        private void skipBlanksAndComments() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (s.startsWith("//", i)) {
                    int nl = s.indexOf('\n', i);
                    i = nl < 0 ? s.length() : nl + 1;
                } else if (s.startsWith("/*", i)) {
                    int end = s.indexOf("*/", i + 2);
                    if (end < 0) {
                        throw new IllegalArgumentException("Unterminated comment in JAAS config");
                    }
                    i = end + 2;
                } else {
                    return;
                }
            }
        }

        private static boolean isWordChar(char c) {
            return Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_' || c == '$';
        }
    }
}
