package io.kaas.security.sasl;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One login module entry of a {@code sasl.jaas.config} value: {@code <class> <flag> key=value ...;}.
 *
 * @param loginModule the login module's class name, e.g. {@code org.apache.kafka.common.security.plain.PlainLoginModule}
 * @param flag        its control flag
 * @param options     its options in the order written (a key given twice keeps the last value, as Kafka's parser)
 */
public record JaasModule(String loginModule, Flag flag, Map<String, String> options) {

    /** JAAS control flags ({@code javax.security.auth.login.AppConfigurationEntry.LoginModuleControlFlag}). */
    public enum Flag {
        REQUIRED, REQUISITE, SUFFICIENT, OPTIONAL;

        /** The flag written {@code text} (case-insensitive), or null if it names none. */
        static Flag parse(String text) {
            for (Flag f : values()) {
                if (f.name().equals(text.toUpperCase(Locale.ROOT))) {
                    return f;
                }
            }
            return null;
        }
    }

    public JaasModule {
        Objects.requireNonNull(loginModule, "loginModule");
        Objects.requireNonNull(flag, "flag");
        options = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
    }

    /** The option {@code key}, or null. */
    public String option(String key) {
        return options.get(key);
    }

    /** Never the options' values: they hold passwords. */
    @Override
    public String toString() {
        return loginModule + " " + flag.name().toLowerCase(Locale.ROOT) + " (options " + options.keySet() + ")";
    }
}
