/**
 * The built-in authorizer, {@code authorizer=acl}: Kafka-style ACL rules from a file. Registered both
 * ways: {@code provides} here (module path) and {@code META-INF/services} (class path).
 */
module io.kaas.authorizer.acl {
    requires io.kaas.api;

    provides io.kaas.api.auth.AuthorizerProvider with io.kaas.authorizer.acl.AclAuthorizerProvider;
}
