package io.kaas.api.cluster;

/**
 * One broker's term as the controller: the only broker whose assignment writes the store accepts while the term lasts.
 *
 * @param controllerId    the controller's node id
 * @param controllerEpoch grows with every election, never reused (Kafka's controller epoch)
 */
public record ControllerTerm(int controllerId, long controllerEpoch) {
}
