/**
 * The build-time generator of kaas-wire: parses Kafka's protocol JSON schemas ({@link
 * io.kaas.wire.codegen.SchemaParser}) into a small model ({@link io.kaas.wire.codegen.MessageSpec}) and writes
 * one Java class per request, response and header schema plus the {@code ApiMessageType} registry
 * ({@link io.kaas.wire.codegen.CodeGenerator}). Runs on the class path only; never shipped.
 */
package io.kaas.wire.codegen;
