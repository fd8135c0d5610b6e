package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ClientQuotaEntity;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Node names of client-quota entities and brokers as Kafka's ZooKeeper mode wrote them: URL-encoded as Kafka's
 * {@code Sanitizer} does ({@code *} as {@code %2A}, a space as {@code %20}), the default entity as {@code <default>}.
 * A name ZooKeeper would refuse as a path segment ({@code .}, {@code ..}) has its dots written {@code %2E}.
 */
final class QuotaNames {
    static final String DEFAULT = "<default>";

    private QuotaNames() {
    }

    static String encode(String name) {
        if (ClientQuotaEntity.DEFAULT_NAME.equals(name)) {
            return DEFAULT;
        }
        String encoded = URLEncoder.encode(name, StandardCharsets.UTF_8).replace("*", "%2A").replace("+", "%20");
        if (encoded.equals(".") || encoded.equals("..")) {
            return encoded.replace(".", "%2E");
        }
        return encoded;
    }

    static String decode(String node) {
        if (DEFAULT.equals(node)) {
            return ClientQuotaEntity.DEFAULT_NAME;
        }
        return URLDecoder.decode(node, StandardCharsets.UTF_8);
    }
}
