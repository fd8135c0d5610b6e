package io.kaas.broker.tools;

import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.security.scram.ScramCredential;
import io.kaas.security.scram.ScramCredentials;
import io.kaas.security.scram.ScramMechanism;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * One {@code --add-scram} argument in Kafka's {@code kafka-storage format} syntax:
 * {@code SCRAM-SHA-256=[name=alice,password=alice-secret]}, with optional {@code iterations=} (default
 * 4096, Kafka's bounds 4096..16384), {@code salt=} (base64; random by default) and, instead of the password,
 * {@code saltedpassword=} (base64, with {@code salt=}). A value may be wrapped in double quotes. The
 * password is used to derive the keys and then dropped; only salt and keys are kept.
 */
final class ScramArgument {
    static final int DEFAULT_ITERATIONS = 4096;

    private ScramArgument() {
    }

    /** Refused input; the message says what is wrong and never repeats a password. */
    static final class InvalidScramArgument extends Exception {
        InvalidScramArgument(String message) {
            super(message);
        }
    }

    static ScramCredentialRecord parse(String argument) throws InvalidScramArgument {
        String input = argument.trim();
        int eq = input.indexOf('=');
        if (eq < 0) {
            throw new InvalidScramArgument("Failed to find equals sign in SCRAM argument '" + input + "'");
        }
        String mechanismName = input.substring(0, eq);
        ScramMechanism mechanism = ScramMechanism.forName(mechanismName).orElseThrow(() ->
                new InvalidScramArgument("The add-scram mechanism " + mechanismName + " is not supported."));
        String config = input.substring(eq + 1);
        if (!config.startsWith("[")) {
            throw new InvalidScramArgument("Expected configuration string to start with [");
        }
        if (!config.endsWith("]")) {
            throw new InvalidScramArgument("Expected configuration string to end with ]");
        }
        Map<String, String> components = components(config.substring(1, config.length() - 1));
        String name = components.remove("name");
        if (name == null || name.isEmpty()) {
            throw new InvalidScramArgument("You must supply 'name' to add-scram");
        }
        String saltText = components.remove("salt");
        byte[] salt = saltText == null ? ScramCredentials.randomSalt(mechanism) : base64(saltText, "salt");
        if (salt.length == 0) {
            throw new InvalidScramArgument("The 'salt' must not be empty for add-scram");
        }
        int iterations = iterations(components.remove("iterations"), mechanism);
        String password = components.remove("password");
        String saltedText = components.remove("saltedpassword");
        if (!components.isEmpty()) {
            throw new InvalidScramArgument("Unknown SCRAM configurations: " + String.join(", ", components.keySet()));
        }
        ScramCredential credential;
        if (password != null) {
            credential = ScramCredentials.fromPassword(mechanism, password, salt, iterations);
        } else if (saltedText == null) {
            throw new InvalidScramArgument("You must supply one of 'password' or 'saltedpassword' to add-scram");
        } else if (saltText == null) {
            throw new InvalidScramArgument("You must supply 'salt' with 'saltedpassword' to add-scram");
        } else {
            byte[] salted = base64(saltedText, "saltedpassword");
            if (salted.length == 0) {
                throw new InvalidScramArgument("The 'saltedpassword' must not be empty for add-scram");
            }
            credential = ScramCredentials.fromSaltedPassword(mechanism, salt, salted, iterations);
        }
        return new ScramCredentialRecord(new ScramCredentialRef(name, mechanism.mechanismName()), credential.salt(),
                credential.storedKey(), credential.serverKey(), credential.iterations());
    }

    private static Map<String, String> components(String config) throws InvalidScramArgument {
        Map<String, String> out = new TreeMap<>();
        String[] parts = config.split(",");
        for (int i = 0; i < parts.length; i++) {
            String component = parts[i];
            int eq = component.indexOf('=');
            if (eq < 0) {
                // Not echoed: it may be the tail of a password that holds a comma.
                throw new InvalidScramArgument("No equals sign found in SCRAM component " + (i + 1) + " of "
                        + parts.length + " (values cannot hold a comma)");
            }
            String value = component.substring(eq + 1);
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            out.put(component.substring(0, eq), value);
        }
        return out;
    }

    private static int iterations(String text, ScramMechanism mechanism) throws InvalidScramArgument {
        if (text == null) {
            return DEFAULT_ITERATIONS;
        }
        int iterations;
        try {
            iterations = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InvalidScramArgument("Failed to parse iterations count: " + text);
        }
        if (iterations < mechanism.minIterations()) {
            throw new InvalidScramArgument("The 'iterations' value must be >= " + mechanism.minIterations()
                    + " for add-scram using " + mechanism.mechanismName());
        }
        if (iterations > mechanism.maxIterations()) {
            throw new InvalidScramArgument("The 'iterations' value must be <= " + mechanism.maxIterations()
                    + " for add-scram using " + mechanism.mechanismName());
        }
        return iterations;
    }

    private static byte[] base64(String text, String what) throws InvalidScramArgument {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidScramArgument("Failed to decode given " + what + " (not base64)");
        }
    }
}
