package io.kaas.security.sasl;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The users of SASL/PLAIN on one listener, from the {@code user_<NAME>="<password>"} options of Kafka's
 * {@code PlainLoginModule}, as Kafka's {@code PlainServerCallbackHandler} reads them. Only a digest of each
 * password is kept, and a password is checked in constant time (digests compared with
 * {@link MessageDigest#isEqual}, an unknown user checked against a dummy digest), so neither the password's
 * length nor the user's existence shows in the time taken. Immutable and thread-safe.
 */
final class PlainUsers {

    static final String USER_PREFIX = "user_";

    private final Map<String, byte[]> digests;
    private final byte[] dummy = digest("\0no user\0".toCharArray());

    private PlainUsers(Map<String, byte[]> digests) {
        this.digests = Map.copyOf(digests);
    }

    /** The users of {@code module}'s {@code user_<NAME>} options (an empty name is not a user). */
    static PlainUsers of(JaasModule module) {
        Map<String, byte[]> digests = new HashMap<>();
        module.options().forEach((key, value) -> {
            if (key.startsWith(USER_PREFIX) && key.length() > USER_PREFIX.length()) {
                digests.put(key.substring(USER_PREFIX.length()), digest(value.toCharArray()));
            }
        });
        return new PlainUsers(digests);
    }

    /** The user names, sorted (for a start-up line; never the passwords). */
    Set<String> names() {
        return new TreeSet<>(digests.keySet());
    }

    boolean isEmpty() {
        return digests.isEmpty();
    }

    /** Whether {@code password} is {@code username}'s. */
    boolean matches(String username, char[] password) {
        byte[] expected = digests.get(username);
        byte[] given = digest(password);
        boolean equal = MessageDigest.isEqual(expected != null ? expected : dummy, given);
        return expected != null && equal;
    }

    private static byte[] digest(char[] password) {
        ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(bytes);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        } finally {
            if (bytes.hasArray()) {
                Arrays.fill(bytes.array(), (byte) 0);
            }
        }
    }
}
