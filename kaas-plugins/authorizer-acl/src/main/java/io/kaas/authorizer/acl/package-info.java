/**
 * The {@code acl} authorizer: Kafka's ACLs, managed with CreateAcls/DescribeAcls/DeleteAcls and kept in the
 * host's {@link io.kaas.api.auth.AclStore} (the cluster-state store), enforced with Kafka's semantics. An empty
 * store is seeded from the rules file named by {@code authorizer.acl.file}, one rule per line,
 *
 * <pre>
 * # allow|deny  principal|*   operation|ALL   resourceType:name|*|prefix*
 * allow         User:alice    WRITE           topic:orders
 * allow         *             READ            topic:logs-*
 * deny          User:mallory  ALL             topic:*
 * allow         User:ops      ALTER           cluster
 * allow         User:app      READ            group:app-*
 * </pre>
 *
 * Resource types are {@code topic}, {@code group}, {@code cluster}, {@code transactional-id},
 * {@code delegation-token} and {@code user}; operations are Kafka's (any case). A name ending in {@code *} is a
 * PREFIXED pattern; {@code *} alone is Kafka's literal wildcard. A principal {@code *} or {@code User:*} is
 * everyone. {@code #} starts a comment. Kafka's semantics: deny wins over allow; {@code super.users} are always
 * allowed; a resource no ACL names is denied unless {@code allow.everyone.if.no.acl.found=true}; READ, WRITE,
 * DELETE and ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS. A line that cannot be parsed fails
 * start-up naming the file and the line; once the store holds ACLs the file is not read.
 */
package io.kaas.authorizer.acl;
