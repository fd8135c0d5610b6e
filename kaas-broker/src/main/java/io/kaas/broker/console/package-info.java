/**
 * The web console's JSON API on the admin endpoint ({@code /api/v1/...}, {@code admin.console.enabled}): a router
 * ({@link io.kaas.broker.console.ConsoleRouter}), one class per resource or action, the payload renderer of the
 * message browser, the metrics sampler behind the live charts, and the HTTP Basic authenticator checking SCRAM
 * credentials. Reads and actions run the broker's own Kafka API handlers in-process as the console user's principal
 * ({@link io.kaas.broker.console.KafkaRequests}), so validation, authorization and error codes are the Kafka API's.
 */
package io.kaas.broker.console;
