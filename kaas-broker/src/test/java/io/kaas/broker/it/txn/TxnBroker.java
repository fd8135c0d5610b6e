package io.kaas.broker.it.txn;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.io.IOException;

/**
 * The broker a transaction test that needs no restart runs against: kaas in process ({@link TestBroker}), or, with
 * {@code -Dkaas.it.txn.reference=host:port}, a broker already running there (Apache Kafka, configured as the test's
 * builder configures kaas, on a fresh data directory), to check that the tests themselves hold on the reference.
 */
final class TxnBroker implements AutoCloseable {
    static final String REFERENCE = "kaas.it.txn.reference";

    final KafkaClients clients;
    private final TestBroker kaas;
    private final int port;

    private TxnBroker(KafkaClients clients, TestBroker kaas, int port) {
        this.clients = clients;
        this.kaas = kaas;
        this.port = port;
    }

    static TxnBroker start(TestBroker.Builder kaasBuilder) throws IOException {
        String reference = System.getProperty(REFERENCE);
        if (reference != null && !reference.isBlank()) {
            return new TxnBroker(KafkaClients.at(reference), null,
                    Integer.parseInt(reference.substring(reference.lastIndexOf(':') + 1)));
        }
        TestBroker broker = kaasBuilder.start();
        return new TxnBroker(broker, broker, broker.port());
    }

    /** The port of the broker on 127.0.0.1, for raw requests. */
    int port() {
        return port;
    }

    /** The broker's id as Admin and the tools see it (node.id=1 for kaas). */
    int brokerId() {
        return 1;
    }

    @Override
    public void close() {
        if (kaas != null) {
            kaas.close();
        }
    }
}
