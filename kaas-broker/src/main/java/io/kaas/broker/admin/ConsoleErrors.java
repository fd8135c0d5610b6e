package io.kaas.broker.admin;

import java.nio.charset.StandardCharsets;

/** The console API's error body, {@code {"error":..., "message":...}}, for the answers the server itself gives. */
public final class ConsoleErrors {

    private ConsoleErrors() {
    }

    /** {@code status} with {@code {"error":error,"message":message}}. */
    public static Answer json(int status, String error, String message) {
        String body = "{\"error\":" + quote(error) + ",\"message\":" + quote(message) + "}";
        return Answer.json(status, body.getBytes(StandardCharsets.UTF_8));
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
