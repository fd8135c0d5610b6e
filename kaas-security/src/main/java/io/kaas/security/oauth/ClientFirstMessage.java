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

    private static final String SEPARATOR = "\u0001";
    private static final String SASLNAME = "(?:[\\x01-\\x7F&&[^=,]]|=2C|=3D)+";
    private static final String KEY = "[A-Za-z]+";
    private static final String VALUE = "[\\x21-\\x7E \t\r\n]+";
    private static final Pattern MESSAGE = Pattern.compile("n,(?:a=(?<authzid>" + SASLNAME + "))?," + SEPARATOR
        + "(?<kvpairs>(?:" + KEY + "=" + VALUE + SEPARATOR + ")*)" + SEPARATOR);
    private static final Pattern KVPAIR = Pattern.compile("(?<key>" + KEY + ")=(?<value>" + VALUE + ")" + SEPARATOR);
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
        Matcher m = MESSAGE.matcher(text);
        if (!m.matches()) {
            throw new SaslException("Invalid OAUTHBEARER client first message");
        }
        String authzid = m.group("authzid") == null ? "" : m.group("authzid").replace("=2C", ",").replace("=3D", "=");
        Map<String, String> pairs = new LinkedHashMap<>();
        Matcher kv = KVPAIR.matcher(m.group("kvpairs"));
        while (kv.find()) {
            pairs.put(kv.group("key"), kv.group("value"));
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

    /** Never the token. */
    @Override
    public String toString() {
        return "ClientFirstMessage[authzid=" + authorizationId + ", extensions=" + extensions.keySet() + "]";
    }
}
