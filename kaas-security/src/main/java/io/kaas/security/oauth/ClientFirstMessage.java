package io.kaas.security.oauth;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.security.sasl.SaslException;

/**
 * The client's first message of OAUTHBEARER (RFC 7628 section 3.1), as Kafka's clients send it:
 * {@code n,[a=<authzid>],^Aauth=Bearer <token>^A[<key>=<value>^A]...^A}. The other key-value pairs are SASL
 * extensions (KIP-342).
 *
 * @param authorizationId the authorization id, empty when absent
 * @param token           the bearer token
 * @param extensions      the extensions, in order
 */
record ClientFirstMessage(String authorizationId, String token, Map<String, String> extensions) {

    private static final char SEPARATOR = '\u0001';
    // character classes only (no repeated groups): linear and without deep recursion on hostile input
    private static final Pattern KEY = Pattern.compile("[A-Za-z]+");
    private static final Pattern VALUE = Pattern.compile("[\\x21-\\x7E \t\r\n]+");
    private static final Pattern SASLNAME_CHARS = Pattern.compile("[\\x01-\\x7F&&[^,]]+");
    private static final Pattern AUTH = Pattern.compile("(?<scheme>\\w+) +(?<token>[-_.a-zA-Z0-9]+)");

    ClientFirstMessage {
        extensions = Map.copyOf(extensions);
    }

    /**
     * Parses {@code message}.
     *
     * @throws SaslException if it is not a well-formed first message with a bearer token (the message names
     *                       what is wrong, never the token)
     */
    static ClientFirstMessage parse(byte[] message) throws SaslException {
        String text = new String(message, StandardCharsets.UTF_8);
        int comma = text.startsWith("n,") ? text.indexOf(',', 2) : -1;
        if (comma < 0) {
            throw invalid();
        }
        String authzid = authorizationId(text.substring(2, comma));
        String rest = text.substring(comma + 1);
        if (rest.length() < 2 || rest.charAt(0) != SEPARATOR || rest.charAt(rest.length() - 1) != SEPARATOR) {
            throw invalid();
        }
        String pairsText = rest.substring(1, rest.length() - 1);
        Map<String, String> pairs = new LinkedHashMap<>();
        if (!pairsText.isEmpty()) {
            if (pairsText.charAt(pairsText.length() - 1) != SEPARATOR) {
                throw invalid();
            }
            for (String pair : pairsText.substring(0, pairsText.length() - 1).split(String.valueOf(SEPARATOR), -1)) {
                int eq = pair.indexOf('=');
                if (eq <= 0 || !KEY.matcher(pair.substring(0, eq)).matches()
                        || !VALUE.matcher(pair.substring(eq + 1)).matches()) {
                    throw invalid();
                }
                pairs.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        String auth = pairs.remove("auth");
        if (auth == null) {
            throw new SaslException("Invalid OAUTHBEARER client first message: 'auth' not specified");
        }
        Matcher a = AUTH.matcher(auth);
        if (!a.matches()) {
            throw new SaslException("Invalid OAUTHBEARER client first message: value of 'auth' is not a bearer token");
        }
        if (!"bearer".equalsIgnoreCase(a.group("scheme"))) {
            throw new SaslException("Invalid scheme in OAUTHBEARER client first message: " + a.group("scheme"));
        }
        return new ClientFirstMessage(authzid, a.group("token"), pairs);
    }

    /** The gs2 header's authorization id: empty, or {@code a=} and a saslname ({@code =2C} and {@code =3D} escapes). */
    private static String authorizationId(String field) throws SaslException {
        if (field.isEmpty()) {
            return "";
        }
        if (!field.startsWith("a=") || !SASLNAME_CHARS.matcher(field.substring(2)).matches()) {
            throw invalid();
        }
        String name = field.substring(2);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '=') {
                out.append(c);
            } else if (name.startsWith("=2C", i)) {
                out.append(',');
                i += 2;
            } else if (name.startsWith("=3D", i)) {
                out.append('=');
                i += 2;
            } else {
                throw invalid();
            }
        }
        return out.toString();
    }

    private static SaslException invalid() {
        return new SaslException("Invalid OAUTHBEARER client first message");
    }

    /** Never the token. */
    @Override
    public String toString() {
        return "ClientFirstMessage[authzid=" + authorizationId + ", extensions=" + extensions.keySet() + "]";
    }
}
