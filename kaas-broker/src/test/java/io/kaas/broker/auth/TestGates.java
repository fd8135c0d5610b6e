package io.kaas.broker.auth;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.broker.config.BrokerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** Access gates over an in-test authorizer that allows the actions a predicate accepts. */
public final class TestGates {
    private TestGates() {
    }

    /** An authorizer allowing what {@code rule} accepts, recording every action it is asked. */
    public static class Recording implements Authorizer {
        private final Predicate<Action> rule;
        public final List<Action> asked = new CopyOnWriteArrayList<>();

        Recording(Predicate<Action> rule) {
            this.rule = rule;
        }

        @Override
        public List<AuthorizationResult> authorize(io.kaas.api.auth.AuthorizableRequestContext request, List<Action> actions) {
            asked.addAll(actions);
            return actions.stream().map(a -> rule.test(a) ? AuthorizationResult.ALLOWED : AuthorizationResult.DENIED).toList();
        }

        @Override
        public void close() {
        }
    }

    /** A gate whose authorizer allows what {@code rule} accepts. */
    public static AccessGate allowing(Predicate<Action> rule) {
        return allowing(new Recording(rule));
    }

    /** A gate over {@code authorizer}. */
    public static AccessGate allowing(Recording authorizer) {
        AuthorizerProvider provider = new AuthorizerProvider() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public int spiVersion() {
                return 1;
            }

            @Override
            public Authorizer open(io.kaas.api.auth.AuthorizerContext context) {
                return authorizer;
            }
        };
        try {
            return AccessGate.open(Optional.of(provider), BrokerConfig.of(Map.of("node.id", "1")), io.kaas.api.auth.AclStore.inMemory());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A recording authorizer allowing what {@code rule} accepts. */
    public static Recording recording(Predicate<Action> rule) {
        return new Recording(rule);
    }
}
