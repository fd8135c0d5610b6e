package io.kaas.security.scram;

import java.util.Optional;

/**
 * The two SCRAM mechanisms Kafka supports, with Kafka's iteration bounds and wire type codes (the
 * {@code Mechanism} byte of DescribeUserScramCredentials / AlterUserScramCredentials: 0 is unknown).
 */
public enum ScramMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", (byte) 1, "SHA-256", "HmacSHA256", "PBKDF2WithHmacSHA256", 256),
    SCRAM_SHA_512("SCRAM-SHA-512", (byte) 2, "SHA-512", "HmacSHA512", "PBKDF2WithHmacSHA512", 512);

    /** Kafka's lower bound on iterations, for both mechanisms. */
    public static final int MIN_ITERATIONS = 4096;
    /** Kafka's upper bound on iterations, for both mechanisms. */
    public static final int MAX_ITERATIONS = 16384;

    private final String mechanismName;
    private final byte type;
    private final String hashAlgorithm;
    private final String macAlgorithm;
    private final String pbkdf2Algorithm;
    private final int keyBits;

    ScramMechanism(String mechanismName, byte type, String hashAlgorithm, String macAlgorithm,
                   String pbkdf2Algorithm, int keyBits) {
        this.mechanismName = mechanismName;
        this.type = type;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
        this.pbkdf2Algorithm = pbkdf2Algorithm;
        this.keyBits = keyBits;
    }

    /** The SASL name, e.g. {@code SCRAM-SHA-256}. */
    public String mechanismName() {
        return mechanismName;
    }

    /** Kafka's wire code: 1 for SCRAM-SHA-256, 2 for SCRAM-SHA-512. */
    public byte type() {
        return type;
    }

    public int minIterations() {
        return MIN_ITERATIONS;
    }

    public int maxIterations() {
        return MAX_ITERATIONS;
    }

    /** Whether {@code iterations} is within Kafka's bounds. */
    public boolean acceptsIterations(int iterations) {
        return iterations >= MIN_ITERATIONS && iterations <= MAX_ITERATIONS;
    }

    String hashAlgorithm() {
        return hashAlgorithm;
    }

    String macAlgorithm() {
        return macAlgorithm;
    }

    String pbkdf2Algorithm() {
        return pbkdf2Algorithm;
    }

    /** The length of the hash, hence of the salted password and the keys, in bytes. */
    public int keyLength() {
        return keyBits / 8;
    }

    int keyBits() {
        return keyBits;
    }

    /** The mechanism of a SASL name ({@code SCRAM-SHA-256}), case-sensitive as in Kafka. */
    public static Optional<ScramMechanism> forName(String name) {
        for (ScramMechanism m : values()) {
            if (m.mechanismName.equals(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /** The mechanism of a wire type code; empty for 0 (unknown) or any other value. */
    public static Optional<ScramMechanism> forType(byte type) {
        for (ScramMechanism m : values()) {
            if (m.type == type) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
