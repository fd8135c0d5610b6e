package io.kaas.broker.console;

import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.admin.Answer;
import io.kaas.plugins.FoundBackend;
import io.kaas.wire.message.DescribeLogDirsResponseData;
import io.kaas.wire.message.MetadataResponseData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/overview}: the cluster (id, controller, brokers as Metadata answers the caller, with the
 * listeners they registered and the partitions they lead), this broker's backends and plugins, and its log dirs
 * (DescribeLogDirs; null when the caller may not describe the cluster).
 */
final class OverviewResource {

    private final ClusterReads reads;
    private final Console.Facts facts;

    OverviewResource(ClusterReads reads, Console.Facts facts) {
        this.reads = reads;
        this.facts = facts;
    }

    Answer get(ConsoleCall call) {
        Caller caller = call.caller();
        MetadataResponseData md = reads.metadata(caller, null);
        Map<Integer, Integer> led = new HashMap<>();
        for (MetadataResponseData.MetadataResponseTopic t : md.topics()) {
            for (MetadataResponseData.MetadataResponsePartition p : t.partitions()) {
                led.merge(p.leaderId(), 1, Integer::sum);
            }
        }
        Map<Integer, LiveBroker> live = facts.cluster().liveBrokers();
        List<MetadataResponseData.MetadataResponseBroker> brokers = new ArrayList<>(md.brokers());
        brokers.sort(Comparator.comparingInt(MetadataResponseData.MetadataResponseBroker::nodeId));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (MetadataResponseData.MetadataResponseBroker b : brokers) {
            boolean self = b.nodeId() == facts.nodeId();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", b.nodeId());
            row.put("host", b.host());
            row.put("port", b.port());
            List<String> listeners = new ArrayList<>();
            LiveBroker l = live.get(b.nodeId());
            if (l != null) {
                for (RegisteredEndpoint e : l.registration().endpoints()) {
                    listeners.add(e.listener() + "://" + hostForUrl(e.host()) + ":" + e.port());
                }
            }
            row.put("listeners", listeners);
            row.put("rack", b.rack());
            row.put("controller", b.nodeId() == md.controllerId());
            row.put("partitionsLed", led.getOrDefault(b.nodeId(), 0));
            // Another broker's as it registered them; null when its registration has none (an older broker).
            java.util.Optional<String> version = self ? java.util.Optional.of(facts.version())
                : l == null ? java.util.Optional.empty() : l.registration().version();
            java.util.OptionalLong started = self ? java.util.OptionalLong.of(facts.startedMs())
                : l == null ? java.util.OptionalLong.empty() : l.registration().startedMs();
            row.put("version", version.orElse(null));
            row.put("uptimeMs", started.isPresent() ? Math.max(0, System.currentTimeMillis() - started.getAsLong()) : null);
            rows.add(row);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("clusterId", md.clusterId());
        body.put("controllerId", md.controllerId() < 0 ? null : md.controllerId());
        body.put("self", facts.nodeId());
        body.put("brokers", rows);
        body.put("storageEngine", backend(facts.engine()));
        body.put("clusterStore", backend(facts.store()));
        body.put("authorizer", facts.authorizer());
        List<Map<String, Object>> plugins = new ArrayList<>();
        for (FoundBackend f : facts.found()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("id", f.name());
            p.put("kind", f.kind());
            p.put("version", f.version());
            p.put("state", inUse(f) ? "in use" : "found");
            p.put("path", f.origin());
            plugins.add(p);
        }
        body.put("plugins", plugins);
        body.put("logDirs", logDirs(caller));
        return Json.answer(200, body);
    }

    private boolean inUse(FoundBackend f) {
        return same(f, facts.engine()) || same(f, facts.store())
            || (f.kind().equals("authorizer") && f.name().equals(facts.authorizer()));
    }

    private static boolean same(FoundBackend a, FoundBackend b) {
        return b != null && a.kind().equals(b.kind()) && a.name().equals(b.name());
    }

    private static Map<String, Object> backend(FoundBackend b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", b == null ? null : b.name());
        m.put("version", b == null ? null : b.version());
        return m;
    }

    private List<Map<String, Object>> logDirs(Caller caller) {
        ClusterReads.LogDirs dirs = reads.localLogDirs(caller);
        if (dirs == null) {
            return null;
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (DescribeLogDirsResponseData.DescribeLogDirsResult d : dirs.dirs()) {
            long used = 0;
            for (DescribeLogDirsResponseData.DescribeLogDirsTopic t : d.topics()) {
                for (DescribeLogDirsResponseData.DescribeLogDirsPartition p : t.partitions()) {
                    used += Math.max(0, p.partitionSize());
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", d.logDir());
            m.put("totalBytes", d.totalBytes() < 0 ? null : d.totalBytes());
            m.put("usableBytes", d.usableBytes() < 0 ? null : d.usableBytes());
            m.put("usedBytes", used);
            out.add(m);
        }
        return out;
    }

    private static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
