package io.kaas.security.scram;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.security.sasl.SaslException;

/**
 * The client messages of a SCRAM exchange (RFC 5802 section 7), parsed strictly: a message that does not
 * follow the grammar is refused with a {@link SaslException} naming what is wrong (never echoing a
 * proof).
 */
final class ScramMessages {

    private ScramMessages() {
    }

    /** {@code gs2-header client-first-message-bare}; only {@code n} (no channel binding) is accepted. */
    record ClientFirst(String gs2Header, String authorizationId, String username, String nonce,
                       Map<String, String> extensions, String bare) {

        static ClientFirst parse(byte[] bytes) throws SaslException {
            String message = utf8(bytes, "client first");
            if (!message.startsWith("n,")) {
                throw new SaslException("Invalid SCRAM client first message: only the gs2 header 'n' (no channel"
                        + " binding) is supported");
            }
            int authzEnd = message.indexOf(',', 2);
            if (authzEnd < 0) {
                throw new SaslException("Invalid SCRAM client first message: no end of the gs2 header");
            }
            String authzPart = message.substring(2, authzEnd);
            String authzid = "";
            if (!authzPart.isEmpty()) {
                if (!authzPart.startsWith("a=")) {
                    throw new SaslException("Invalid SCRAM client first message: bad authorization id field");
                }
                authzid = decodeName(authzPart.substring(2), "authorization id");
            }
            String gs2Header = message.substring(0, authzEnd + 1);
            String bare = message.substring(authzEnd + 1);
            List<String> fields = split(bare);
            if (fields.size() < 2 || !fields.get(0).startsWith("n=") || !fields.get(1).startsWith("r=")) {
                throw new SaslException("Invalid SCRAM client first message: expected n=<user>,r=<nonce>");
            }
            String username = decodeName(fields.get(0).substring(2), "user name");
            String nonce = fields.get(1).substring(2);
            checkNonce(nonce);
            return new ClientFirst(gs2Header, authzid, username, nonce, parseExtensions(fields.subList(2, fields.size())),
                    bare);
        }
    }

    /** {@code c=<channel binding>,r=<nonce>[,extensions],p=<proof>}. */
    record ClientFinal(byte[] channelBinding, String nonce, byte[] proof, String withoutProof) {

        static ClientFinal parse(byte[] bytes) throws SaslException {
            String message = utf8(bytes, "client final");
            int proofAt = message.lastIndexOf(",p=");
            if (proofAt < 0) {
                throw new SaslException("Invalid SCRAM client final message: no proof");
            }
            String withoutProof = message.substring(0, proofAt);
            List<String> fields = split(withoutProof);
            if (fields.size() < 2 || !fields.get(0).startsWith("c=") || !fields.get(1).startsWith("r=")) {
                throw new SaslException("Invalid SCRAM client final message: expected c=<binding>,r=<nonce>");
            }
            byte[] binding = base64(fields.get(0).substring(2), "channel binding");
            String nonce = fields.get(1).substring(2);
            checkNonce(nonce);
            parseExtensions(fields.subList(2, fields.size()));
            byte[] proof = base64(message.substring(proofAt + 3), "proof");
            if (proof.length == 0) {
                throw new SaslException("Invalid SCRAM client final message: empty proof");
            }
            return new ClientFinal(binding, nonce, proof, withoutProof);
        }
    }

    static String serverFirst(String nonce, byte[] salt, int iterations) {
        return "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(salt) + ",i=" + iterations;
    }

    static String serverFinal(byte[] serverSignature) {
        return "v=" + Base64.getEncoder().encodeToString(serverSignature);
    }

    private static String utf8(byte[] bytes, String which) throws SaslException {
        if (bytes == null || bytes.length == 0) {
            throw new SaslException("Invalid SCRAM " + which + " message: empty");
        }
        String s = new String(bytes, StandardCharsets.UTF_8);
        if (s.indexOf('\uFFFD') >= 0 || s.indexOf('\0') >= 0) {
            throw new SaslException("Invalid SCRAM " + which + " message: not valid UTF-8 text");
        }
        return s;
    }

    /** Splits on commas, keeping empty fields (which the grammar never allows, so they fail later). */
    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || s.charAt(i) == ',') {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }

    /** {@code saslname}: {@code =2C} is a comma, {@code =3D} an equals sign; any other {@code =} is refused. */
    static String decodeName(String encoded, String what) throws SaslException {
        if (encoded.isEmpty()) {
            throw new SaslException("Invalid SCRAM client first message: empty " + what);
        }
        StringBuilder out = new StringBuilder(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c != '=') {
                out.append(c);
            } else if (encoded.startsWith("=2C", i)) {
                out.append(',');
                i += 2;
            } else if (encoded.startsWith("=3D", i)) {
                out.append('=');
                i += 2;
            } else {
                throw new SaslException("Invalid SCRAM client first message: bad escape in the " + what);
            }
        }
        return out.toString();
    }

    private static void checkNonce(String nonce) throws SaslException {
        if (nonce.isEmpty()) {
            throw new SaslException("Invalid SCRAM message: empty nonce");
        }
        for (int i = 0; i < nonce.length(); i++) {
            char c = nonce.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new SaslException("Invalid SCRAM message: the nonce has a non-printable character");
            }
        }
    }

    /** {@code ALPHA=VALUE} attributes after the mandatory ones (Kafka's SCRAM extensions). */
    private static Map<String, String> parseExtensions(List<String> fields) throws SaslException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String field : fields) {
            int eq = field.indexOf('=');
            if (eq <= 0 || eq == field.length() - 1) {
                throw new SaslException("Invalid SCRAM message: malformed extension attribute");
            }
            String name = field.substring(0, eq);
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                    throw new SaslException("Invalid SCRAM message: malformed extension name");
                }
            }
            out.put(name, field.substring(eq + 1));
        }
        return out;
    }

    private static byte[] base64(String s, String what) throws SaslException {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new SaslException("Invalid SCRAM client final message: the " + what + " is not base64");
        }
    }
}
