package io.kaas.cluster.zookeeper.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Node names for ids of any characters (group ids, user names, ACL resources): the UTF-8 bytes, with
 * {@code [A-Za-z0-9_-]} kept and every other byte written {@code %XX} (so "." and ".." and '/' cannot reach a path).
 */
final class NodeNames {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private NodeNames() {
    }

    static String encode(String id) {
        StringBuilder out = new StringBuilder();
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
                out.append(c);
            } else {
                out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
            }
        }
        // an empty id still needs a name: "%" alone never comes out of a non-empty id
        return out.length() == 0 ? "%" : out.toString();
    }

    /** @throws IllegalArgumentException if {@code name} is not one {@link #encode} makes */
    static String decode(String name) {
        if (name.equals("%")) {
            return "";
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%') {
                if (i + 2 >= name.length()) {
                    throw new IllegalArgumentException("truncated escape in node name '" + name + "'");
                }
                bytes.write(Integer.parseInt(name.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
