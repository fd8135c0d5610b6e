package io.kaas.security.scram;

import java.util.Arrays;

/**
 * What a server keeps of one user's password for one mechanism (RFC 5802 section 3): the salt, the
 * iteration count, StoredKey = H(ClientKey) and ServerKey. The password and the salted password are not
 * part of it. Arrays are copied in and out.
 */
public final class ScramCredential {
    private final byte[] salt;
    private final byte[] storedKey;
    private final byte[] serverKey;
    private final int iterations;

    public ScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
        if (salt == null || salt.length == 0) {
            throw new IllegalArgumentException("a SCRAM credential needs a non-empty salt");
        }
        if (storedKey == null || storedKey.length == 0 || serverKey == null || serverKey.length == 0) {
            throw new IllegalArgumentException("a SCRAM credential needs a stored key and a server key");
        }
        if (iterations <= 0) {
            throw new IllegalArgumentException("a SCRAM credential needs a positive iteration count, not " + iterations);
        }
        this.salt = salt.clone();
        this.storedKey = storedKey.clone();
        this.serverKey = serverKey.clone();
        this.iterations = iterations;
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
        return o instanceof ScramCredential c && iterations == c.iterations && Arrays.equals(salt, c.salt)
                && Arrays.equals(storedKey, c.storedKey) && Arrays.equals(serverKey, c.serverKey);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(storedKey) + iterations;
    }

    /** Names the iteration count only: keys and salt are never printed. */
    @Override
    public String toString() {
        return "ScramCredential[iterations=" + iterations + "]";
    }
}
