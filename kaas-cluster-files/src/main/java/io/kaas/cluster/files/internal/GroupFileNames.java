package io.kaas.cluster.files.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * File names for group ids, which may hold any character. Lower-case ASCII letters, digits, '_' and
 * '-' stay as they are; every other UTF-8 byte becomes {@code %XX} (upper-case hex). Upper-case letters
 * are escaped too, so ids differing only in case never collide on a case-insensitive file system, and
 * '.' is escaped, so no name is "." or ".." or hidden. An encoded name longer than {@link #MAX_ENCODED}
 * becomes {@code ~} plus the SHA-256 of the id in hex ('~' never appears in an encoded name); the id
 * itself is always stored inside the file. The empty id (Kafka accepts it in OffsetCommit) is {@code %}.
 */
final class GroupFileNames {
    static final int MAX_ENCODED = 200;
    private static final char HASHED = '~';

    private GroupFileNames() {
    }

    /** The file name stem (without {@code .json}) of {@code groupId}. */
    static String encode(String groupId) {
        if (groupId.isEmpty()) {
            return "%";
        }
        byte[] utf8 = groupId.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(utf8.length);
        for (byte b : utf8) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
            if (out.length() > MAX_ENCODED) {
                return HASHED + sha256(utf8);
            }
        }
        return out.toString();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
