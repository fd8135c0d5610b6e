package io.kaas.security.tls;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Kafka's {@code ssl.principal.mapping.rules}: a comma-separated list of {@code DEFAULT} (the distinguished
 * name as it is) and {@code RULE:pattern/replacement/} rules, each optionally followed by {@code L} or
 * {@code U} (lower or upper case the result). The first rule whose pattern matches the whole DN gives the
 * name; {@code \} escapes a {@code /} (or any character) inside a pattern or replacement, and a pattern may
 * hold commas. A {@code $n} naming a group the pattern does not have stays literal. Immutable.
 */
public final class SslPrincipalMapper {

    private final List<Rule> rules;

    private SslPrincipalMapper(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /**
     * Parses {@code rules} (null: {@code DEFAULT}).
     *
     * @throws TlsConfigException naming {@code ssl.principal.mapping.rules} if a rule is malformed
     */
    public static SslPrincipalMapper parse(String rules) {
        return new SslPrincipalMapper(new Parser(rules == null ? SslKeys.DEFAULT_PRINCIPAL_MAPPING_RULES : rules).rules());
    }

    /** The name the first matching rule gives {@code distinguishedName}; empty if no rule matches. */
    public Optional<String> name(String distinguishedName) {
        for (Rule r : rules) {
            String name = r.apply(distinguishedName);
            if (name != null) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return rules.toString();
    }

    private record Rule(Pattern pattern, String replacement, char caseChange) {

        static final Rule DEFAULT = new Rule(null, null, ' ');

        String apply(String dn) {
            if (pattern == null) {
                return dn;
            }
            Matcher m = pattern.matcher(dn);
            if (!m.matches()) {
                return null;
            }
            // As Kafka: replaceAll over the whole DN (a pattern that also matches the empty string at the end
            // adds the replacement once more).
            String out = pattern.matcher(dn).replaceAll(literalMissingGroups(replacement, m.groupCount()));
            return switch (caseChange) {
                case 'L' -> out.toLowerCase(Locale.ENGLISH);
                case 'U' -> out.toUpperCase(Locale.ENGLISH);
                default -> out;
            };
        }

        /** {@code $n} whose first digit names no group becomes a literal {@code $n}. */
        private static String literalMissingGroups(String replacement, int groups) {
            StringBuilder out = new StringBuilder(replacement.length() + 4);
            for (int i = 0; i < replacement.length(); i++) {
                char c = replacement.charAt(i);
                if (c == '\\' && i + 1 < replacement.length()) {
                    out.append(c).append(replacement.charAt(++i));
                } else if (c == '$' && i + 1 < replacement.length() && Character.isDigit(replacement.charAt(i + 1))
                        && replacement.charAt(i + 1) - '0' > groups) {
                    out.append("\\$");
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }

        @Override
        public String toString() {
            return pattern == null ? "DEFAULT" : "RULE:" + pattern + "/" + replacement + "/" + caseChange;
        }
    }

    /** A scanner over the rule list: rules, separated by commas and spaces. */
    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text.trim();
        }

        List<Rule> rules() {
            List<Rule> out = new ArrayList<>();
            while (true) {
                skipSpaces();
                if (pos >= text.length()) {
                    return out;
                }
                if (text.charAt(pos) == ',') {
                    pos++; // an empty rule is ignored, as Kafka does
                    continue;
                }
                out.add(rule());
                skipSpaces();
                if (pos < text.length()) {
                    if (text.charAt(pos) != ',') {
                        throw bad("unexpected '" + text.substring(pos) + "' after rule " + out.get(out.size() - 1));
                    }
                    pos++;
                }
            }
        }

        private Rule rule() {
            if (text.startsWith("DEFAULT", pos)) {
                pos += "DEFAULT".length();
                return Rule.DEFAULT;
            }
            if (!text.startsWith("RULE:", pos)) {
                throw bad("'" + text.substring(pos) + "' is neither DEFAULT nor RULE:pattern/replacement/[LU]");
            }
            int began = pos;
            pos += "RULE:".length();
            String pattern = part(began);
            String replacement = part(began);
            char caseChange = ' ';
            if (pos < text.length() && (text.charAt(pos) == 'L' || text.charAt(pos) == 'U')) {
                caseChange = text.charAt(pos++);
            }
            try {
                return new Rule(Pattern.compile(pattern), replacement, caseChange);
            } catch (PatternSyntaxException e) {
                throw bad("rule '" + text.substring(began, pos) + "' has an invalid pattern: " + e.getDescription());
            }
        }

        /** Up to the next unescaped '/', which is consumed; escapes are kept for the regex engine. */
        private String part(int ruleStart) {
            StringBuilder out = new StringBuilder();
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == '\\' && pos < text.length()) {
                    out.append(c).append(text.charAt(pos++));
                } else if (c == '/') {
                    return out.toString();
                } else {
                    out.append(c);
                }
            }
            throw bad("rule '" + text.substring(ruleStart) + "' is not of the form RULE:pattern/replacement/[LU]");
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private TlsConfigException bad(String problem) {
            return new TlsConfigException(SslKeys.PRINCIPAL_MAPPING_RULES, "Invalid rule: " + problem);
        }
    }
}
