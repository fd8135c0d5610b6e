package io.kaas.api.cluster;

import java.util.Arrays;
import java.util.Objects;

/**
 * One stored SCRAM credential (RFC 5802): what the broker needs to check a client's proof, and nothing
 * from which the password could be had without a brute-force search. Neither the password nor the
 * salted password is stored. Arrays are copied in and out; {@link #toString()} names user, mechanism
 * and iterations only.
 */
public final class ScramCredentialRecord {
    private final ScramCredentialRef ref;
    private final byte[] salt;
    private final byte[] storedKey;
    private final byte[] serverKey;
    private final int iterations;

    /**
     * @param ref        the user and mechanism
     * @param salt       the salt, not empty
     * @param storedKey  StoredKey = H(ClientKey), not empty
     * @param serverKey  ServerKey = HMAC(SaltedPassword, "Server Key"), not empty
     * @param iterations the iteration count of the salted password, positive (the broker enforces Kafka's bounds)
     */
    public ScramCredentialRecord(ScramCredentialRef ref, byte[] salt, byte[] storedKey, byte[] serverKey,
                                 int iterations) {
        this.ref = Objects.requireNonNull(ref, "ref");
        this.salt = nonEmpty(salt, "salt");
        this.storedKey = nonEmpty(storedKey, "stored key");
        this.serverKey = nonEmpty(serverKey, "server key");
        if (iterations <= 0) {
            throw new IllegalArgumentException("a SCRAM credential needs a positive iteration count, not " + iterations);
        }
        this.iterations = iterations;
    }

    private static byte[] nonEmpty(byte[] bytes, String what) {
        if (bytes == null || bytes.length == 0) {
            throw new IllegalArgumentException("a SCRAM credential needs a non-empty " + what);
        }
        return bytes.clone();
    }

    public ScramCredentialRef ref() {
        return ref;
    }

    public String user() {
        return ref.user();
    }

    public String mechanism() {
        return ref.mechanism();
    }

    public byte[] salt() {
        return salt.clone();
    }

    public byte[] storedKey() {
        return storedKey.clone();
    }

    public byte[] serverKey() {
        return serverKey.clone();
    }

    public int iterations() {
        return iterations;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramCredentialRecord r && ref.equals(r.ref) && iterations == r.iterations
                && Arrays.equals(salt, r.salt) && Arrays.equals(storedKey, r.storedKey)
                && Arrays.equals(serverKey, r.serverKey);
    }

    @Override
    public int hashCode() {
        return 31 * ref.hashCode() + iterations;
    }

    @Override
    public String toString() {
        return "ScramCredentialRecord[user=" + ref.user() + ", mechanism=" + ref.mechanism() + ", iterations="
                + iterations + "]";
    }
}
