package io.kaas.broker.quota;

/** The client quotas kaas enforces, by Kafka's keys. */
public enum QuotaType {
    PRODUCE("producer_byte_rate"),
    FETCH("consumer_byte_rate"),
    REQUEST("request_percentage"),
    CONTROLLER_MUTATION("controller_mutation_rate");

    private final String key;

    QuotaType(String key) {
        this.key = key;
    }

    /** Kafka's quota key. */
    public String key() {
        return key;
    }
}
