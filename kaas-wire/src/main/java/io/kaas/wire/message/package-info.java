/**
 * Message classes generated at build time from Kafka's protocol schemas ({@code common/message/*.json} of
 * {@code kafka-clients}): one {@code <Name>Data} class per request, response and header schema, with nested
 * static classes for its structs, plus the {@link io.kaas.wire.message.ApiMessageType} registry. Naming
 * mirrors Kafka's generated classes.
 */
package io.kaas.wire.message;
