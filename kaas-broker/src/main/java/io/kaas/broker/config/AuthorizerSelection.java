package io.kaas.broker.config;

import java.util.Set;

/**
 * Which authorizer {@code authorizer} and Kafka's {@code authorizer.class.name} select together. Kafka's own
 * class names ({@value #STANDARD_AUTHORIZER}, KRaft's, and {@value #ACL_AUTHORIZER}, the ZooKeeper one) name
 * the built-in {@value #BUILT_IN} authorizer, so a Kafka config file keeps working; kaas loads no other class
 * (a plugin authorizer is selected by name with {@code authorizer=<name>}). Both keys set and naming
 * different authorizers is an error.
 */
final class AuthorizerSelection {
    static final String KEY = "authorizer.class.name";
    static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    static final String ACL_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer";
    static final Set<String> KAFKA_CLASS_NAMES = Set.of(STANDARD_AUTHORIZER, ACL_AUTHORIZER);
    static final String BUILT_IN = "acl";
    static final String NONE = "none";

    private AuthorizerSelection() {
    }

    /**
     * The authorizer's name.
     *
     * @param byName    {@code authorizer} as set, or null when not set
     * @param className {@code authorizer.class.name} as set, or null when not set
     * @throws ConfigException naming the key, for a class name kaas does not know or keys that disagree
     */
    static String resolve(String byName, String className) {
        String fromClass = null;
        if (className != null && !className.isBlank()) {
            String c = className.strip();
            if (!KAFKA_CLASS_NAMES.contains(c)) {
                throw new ConfigException(KEY, "'" + c + "' is not an authorizer kaas runs: kaas takes "
                        + STANDARD_AUTHORIZER + " and " + ACL_AUTHORIZER + " as its built-in ACL authorizer and loads no "
                        + "other class; select a plugin authorizer with authorizer=<name>");
            }
            fromClass = BUILT_IN;
        }
        String name = byName == null || byName.isBlank() ? null : byName.strip();
        if (fromClass == null) {
            return name == null ? NONE : name;
        }
        if (name != null && !name.equals(fromClass)) {
            throw new ConfigException(KEY, "'" + className.strip() + "' selects the built-in '" + BUILT_IN
                    + "' authorizer but authorizer=" + name + " selects another; set only one of the two keys");
        }
        return fromClass;
    }
}
