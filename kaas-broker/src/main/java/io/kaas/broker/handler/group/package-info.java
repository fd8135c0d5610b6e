/**
 * The group APIs, one handler per API, over {@link io.kaas.coordinator.group.GroupCoordinator}; created
 * together by {@link io.kaas.broker.handler.group.GroupHandlers#create}. Handlers translate between
 * request/response versions; the coordinator holds the behaviour.
 */
package io.kaas.broker.handler.group;
