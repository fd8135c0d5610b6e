package io.kaas.broker.handler;

import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Requester;

/** Who sent a request, as the topic manager names them in its log lines. */
final class Requesters {
    private Requesters() {
    }

    static Requester of(RequestContext context) {
        return new Requester(String.valueOf(context.principal()), context.clientId(), context.clientAddress());
    }
}
