/**
 * The ACL APIs (DescribeAcls, CreateAcls, DeleteAcls), one handler each, as Kafka's {@code AclApis}: the
 * authorizer owns its ACLs and the handlers ask it ({@link io.kaas.api.auth.Authorizer#createAcls},
 * {@code deleteAcls}, {@code acls}); without an authorizer that manages ACLs they answer SECURITY_DISABLED.
 */
package io.kaas.broker.handler.acl;
