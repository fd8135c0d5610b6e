/**
 * The request pipeline between the network layer and the handlers: each API's contract as data
 * ({@link io.kaas.broker.request.ApiSpec}, one row per API in {@link io.kaas.broker.request.ApiContracts}),
 * the handler SPI ({@link io.kaas.broker.request.ApiHandler}, {@link io.kaas.broker.request.RequestContext})
 * and {@link io.kaas.broker.request.HandlerRegistry},
 * which computes ApiVersions from the contracts and authorizes each request as its contract says before
 * its handler runs. The network layer and the handlers both depend on this package, never on each other.
 */
package io.kaas.broker.request;
