/**
 * The {@code acl} authorizer: rules from the file named by {@code authorizer.acl.file}, one per line,
 *
 * <pre>
 * # allow|deny  principal|*   operation|ALL   resourceType:name|*|prefix*
 * allow         User:alice    WRITE           topic:orders
 * allow         *             READ            topic:logs-*
 * deny          User:mallory  ALL             topic:*
 * allow         User:ops      CREATE          cluster
 * allow         User:app      READ            group:app-*
 * </pre>
 *
 * Resource types are {@code topic}, {@code group}, {@code cluster} and {@code transactional-id};
 * operations are Kafka's ({@code READ WRITE CREATE DELETE ALTER DESCRIBE DESCRIBE_CONFIGS
 * ALTER_CONFIGS CLUSTER_ACTION IDEMPOTENT_WRITE ALL}, any case). A name ending in {@code *} is a
 * prefix; {@code *} alone is every name. A principal {@code *} is everyone, {@code User:*} every user.
 * {@code #} starts a comment. Kafka's semantics: deny wins over allow; {@code super.users} are always
 * allowed; a resource no rule names is denied unless {@code allow.everyone.if.no.acl.found=true};
 * READ, WRITE, DELETE and ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS. The file is read
 * once, at start-up; a line that cannot be parsed fails start-up naming the file and the line.
 */
package io.kaas.authorizer.acl;
