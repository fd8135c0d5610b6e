/**
 * The Netty server: size-capped frames, header and body decoding, dispatch to request-handler
 * threads (never the event loop), and responses written in request order per connection. Any
 * protocol violation closes the offending connection only, with one WARN line.
 */
package io.kaas.broker.network;
