package io.kaas.security.scram;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * SCRAM's key derivation (RFC 5802 section 3) with the JDK's algorithms: SaltedPassword = Hi(password,
 * salt, i) is PBKDF2 with the mechanism's HMAC; ClientKey = HMAC(SaltedPassword, "Client Key"),
 * StoredKey = H(ClientKey), ServerKey = HMAC(SaltedPassword, "Server Key").
 */
public final class ScramCredentials {
    private static final byte[] CLIENT_KEY = "Client Key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_KEY = "Server Key".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private ScramCredentials() {
    }

    /** A random salt of the mechanism's key length, as Kafka's tools make one. */
    public static byte[] randomSalt(ScramMechanism mechanism) {
        byte[] salt = new byte[mechanism.keyLength()];
        RANDOM.nextBytes(salt);
        return salt;
    }

    /** Hi(password, salt, iterations): PBKDF2 over the password's UTF-8 bytes, the hash's length. */
    public static byte[] saltedPassword(ScramMechanism mechanism, String password, byte[] salt, int iterations) {
        char[] chars = password.toCharArray();
        PBEKeySpec spec = new PBEKeySpec(chars, salt, iterations, mechanism.keyBits());
        try {
            return SecretKeyFactory.getInstance(mechanism.pbkdf2Algorithm()).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.pbkdf2Algorithm() + " is not available in this JDK", e);
        } finally {
            spec.clearPassword();
            Arrays.fill(chars, '\0');
        }
    }

    /** The credential of a password: derives the salted password, then the keys. */
    public static ScramCredential fromPassword(ScramMechanism mechanism, String password, byte[] salt, int iterations) {
        byte[] salted = saltedPassword(mechanism, password, salt, iterations);
        try {
            return fromSaltedPassword(mechanism, salt, salted, iterations);
        } finally {
            Arrays.fill(salted, (byte) 0);
        }
    }

    /**
     * The credential of an already salted password (what AlterUserScramCredentials carries: the client
     * salts, the broker derives the keys).
     */
    public static ScramCredential fromSaltedPassword(ScramMechanism mechanism, byte[] salt, byte[] saltedPassword,
                                                     int iterations) {
        byte[] clientKey = hmac(mechanism, saltedPassword, CLIENT_KEY);
        try {
            return new ScramCredential(salt, hash(mechanism, clientKey), hmac(mechanism, saltedPassword, SERVER_KEY),
                    iterations);
        } finally {
            Arrays.fill(clientKey, (byte) 0);
        }
    }

    static byte[] hmac(ScramMechanism mechanism, byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(mechanism.macAlgorithm());
            mac.init(new SecretKeySpec(key, mechanism.macAlgorithm()));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.macAlgorithm() + " is not available in this JDK", e);
        }
    }

    static byte[] hash(ScramMechanism mechanism, byte[] message) {
        try {
            return MessageDigest.getInstance(mechanism.hashAlgorithm()).digest(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.hashAlgorithm() + " is not available in this JDK", e);
        }
    }

    static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }
}
