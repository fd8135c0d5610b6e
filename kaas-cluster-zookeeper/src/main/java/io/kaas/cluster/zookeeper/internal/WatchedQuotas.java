package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ClientQuotaEntity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every client quota, read from Kafka's ZooKeeper layout ({@code /config/clients/<id>}, {@code /config/users/<user>},
 * {@code /config/users/<user>/clients/<id>}, {@code /config/ips/<ip>}, each {@code {"version":1,"config":{...}}}) and
 * kept current by persistent recursive watches: any change under those directories re-reads the whole tree (quotas
 * change rarely) on the store's event thread and tells {@code onChange} if the quotas differ. Getters are lock-free.
 */
final class WatchedQuotas {
    private static final Logger LOG = LoggerFactory.getLogger(WatchedQuotas.class);
    static final String CLIENTS = "/config/clients";
    static final String USERS = "/config/users";
    static final String IPS = "/config/ips";
    static final List<String> DIRECTORIES = List.of(CLIENTS, USERS, IPS);

    private final CuratorFramework client;
    private final Runnable onChange;
    private final Executor events;
    private final ReentrantLock lock = new ReentrantLock();
    private final Watcher watcher = this::onEvent;
    private volatile Map<ClientQuotaEntity, Map<String, Double>> quotas = Map.of();
    private volatile boolean closed;

    WatchedQuotas(CuratorFramework client, Runnable onChange, Executor events) {
        this.client = client;
        this.onChange = onChange;
        this.events = events;
    }

    static String path(ClientQuotaEntity entity) {
        String user = entity.name(ClientQuotaEntity.USER);
        String clientId = entity.name(ClientQuotaEntity.CLIENT_ID);
        String ip = entity.name(ClientQuotaEntity.IP);
        if (ip != null) {
            return IPS + "/" + QuotaNames.encode(ip);
        }
        if (user == null) {
            return CLIENTS + "/" + QuotaNames.encode(clientId);
        }
        String userPath = USERS + "/" + QuotaNames.encode(user);
        return clientId == null ? userPath : userPath + "/clients/" + QuotaNames.encode(clientId);
    }

    Map<ClientQuotaEntity, Map<String, Double>> quotas() {
        return quotas;
    }

    void watchAndLoad() throws Exception {
        for (String dir : DIRECTORIES) {
            client.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher(watcher).forPath(dir);
        }
        refresh();
    }

    void close() {
        closed = true;
    }

    private void onEvent(WatchedEvent event) {
        if (event.getPath() == null || closed) {
            return;
        }
        events.execute(() -> {
            try {
                refresh();
            } catch (Exception e) {
                if (!closed) {
                    LOG.warn("Could not read the client quotas in ZooKeeper after a change of {}: {}", event.getPath(),
                            e.toString());
                }
            }
        });
    }

    /** Reads every quota again; tells {@code onChange} if they differ from what was known. */
    void refresh() throws Exception {
        boolean changed;
        lock.lock();
        try {
            Map<ClientQuotaEntity, Map<String, Double>> read = new HashMap<>();
            for (String id : children(CLIENTS)) {
                add(read, ClientQuotaEntity.of(ClientQuotaEntity.CLIENT_ID, QuotaNames.decode(id)), CLIENTS + "/" + id);
            }
            for (String ip : children(IPS)) {
                add(read, ClientQuotaEntity.of(ClientQuotaEntity.IP, QuotaNames.decode(ip)), IPS + "/" + ip);
            }
            for (String user : children(USERS)) {
                String userPath = USERS + "/" + user;
                add(read, ClientQuotaEntity.of(ClientQuotaEntity.USER, QuotaNames.decode(user)), userPath);
                for (String id : children(userPath + "/clients")) {
                    add(read, ClientQuotaEntity.of(ClientQuotaEntity.USER, QuotaNames.decode(user),
                            ClientQuotaEntity.CLIENT_ID, QuotaNames.decode(id)), userPath + "/clients/" + id);
                }
            }
            Map<ClientQuotaEntity, Map<String, Double>> next = Map.copyOf(read);
            changed = !next.equals(quotas);
            quotas = next;
        } finally {
            lock.unlock();
        }
        if (changed) {
            onChange.run();
        }
    }

    private List<String> children(String path) throws Exception {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    /** Adds the numeric entries of the node's {@code config} (a user node's SCRAM fields are not quotas). */
    private void add(Map<ClientQuotaEntity, Map<String, Double>> into, ClientQuotaEntity entity, String path)
            throws Exception {
        byte[] data;
        try {
            data = client.getData().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return;
        }
        Map<String, String> config;
        try {
            config = Json.configOrEmpty(data);
        } catch (RuntimeException e) {
            LOG.warn("Ignoring the client quotas of ZooKeeper node {}: it cannot be read ({})", path, e.getMessage());
            return;
        }
        Map<String, Double> values = new HashMap<>();
        config.forEach((key, value) -> {
            try {
                values.put(key, Double.parseDouble(value));
            } catch (NumberFormatException notAQuota) {
                // not a quota value (Kafka kept SCRAM credentials in the same map)
            }
        });
        if (!values.isEmpty()) {
            into.put(entity, Map.copyOf(values));
        }
    }
}
