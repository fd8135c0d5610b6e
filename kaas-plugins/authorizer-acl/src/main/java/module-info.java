/**
 * The built-in authorizer, {@code authorizer=acl}: Kafka's ACLs, kept in the host's ACL store. Registered both
 * ways: {@code provides} here (module path) and {@code META-INF/services} (class path).
 */
module io.kaas.authorizer.acl {
    requires io.kaas.api;

    provides io.kaas.api.auth.AuthorizerProvider with io.kaas.authorizer.acl.AclAuthorizerProvider;
}
