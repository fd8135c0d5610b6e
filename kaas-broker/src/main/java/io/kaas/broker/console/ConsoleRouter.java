package io.kaas.broker.console;

import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.broker.admin.AdminRequest;
import io.kaas.broker.admin.Answer;
import io.kaas.broker.admin.ConsoleApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's JSON API under {@code /api/v1}: authenticates the caller, guards the actions (a POST or PATCH needs
 * {@code Content-Type: application/json} and {@code X-Kaas-Console: 1}, which a cross-site form cannot send), and
 * hands each route to its resource. A refused request is answered with its status and {@code {"error","message"}}
 * and logged once, naming the request and the principal.
 */
public final class ConsoleRouter implements ConsoleApi {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleRouter.class);
    static final String ACTION_HEADER = "x-kaas-console";

    private final BasicScramAuthenticator authenticator;
    private final OverviewResource overview;
    private final ChartsSampler charts;
    private final TopicsResource topics;
    private final MessagesResource messages;
    private final GroupsResource groups;
    private final TopicActions topicActions;
    private final ProduceAction produce;
    private final ResetOffsetsAction resetOffsets;

    ConsoleRouter(BasicScramAuthenticator authenticator, OverviewResource overview, ChartsSampler charts,
                  TopicsResource topics, MessagesResource messages, GroupsResource groups, TopicActions topicActions,
                  ProduceAction produce, ResetOffsetsAction resetOffsets) {
        this.authenticator = authenticator;
        this.overview = overview;
        this.charts = charts;
        this.topics = topics;
        this.messages = messages;
        this.groups = groups;
        this.topicActions = topicActions;
        this.produce = produce;
        this.resetOffsets = resetOffsets;
    }

    @Override
    public Answer handle(AdminRequest request) {
        KafkaPrincipal principal = null;
        try {
            List<String> path = segments(request.path());
            boolean action = !"GET".equals(request.method());
            if (action) {
                guardAction(request);
            }
            principal = authenticator.authenticate(request);
            ConsoleCall call = new ConsoleCall(new Caller(principal, request.remote()), request);
            return route(request.method(), path, call);
        } catch (ApiError e) {
            LOG.atInfo().addKeyValue("principal", principal == null ? "unauthenticated" : principal.toString())
                .addKeyValue("remote", request.remote()).addKeyValue("status", e.status())
                .addKeyValue("error", e.error())
                .log("console: refused {} {} from {} ({}): {} {}", request.method(), request.path(),
                    principal == null ? "an unauthenticated caller" : principal, remote(request), e.status(),
                    e.getMessage());
            return Json.error(e);
        }
    }

    private static String remote(AdminRequest request) {
        return request.remote() == null ? "?" : request.remote().getAddress().getHostAddress();
    }

    private static void guardAction(AdminRequest request) {
        if (!"POST".equals(request.method()) && !"PATCH".equals(request.method())) {
            throw new ApiError(405, "METHOD_NOT_ALLOWED", "method " + request.method() + " is not allowed on "
                + request.path());
        }
        if (!"1".equals(request.header(ACTION_HEADER))) {
            throw new ApiError(403, "CONSOLE_HEADER_REQUIRED", request.method() + " " + request.path()
                + " needs the header X-Kaas-Console: 1 (actions are only accepted from the console)");
        }
        String type = request.header("content-type");
        if (type == null || !type.toLowerCase(Locale.ROOT).trim().startsWith("application/json")) {
            throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", request.method() + " " + request.path()
                + " needs Content-Type: application/json, not " + (type == null ? "none" : "'" + type + "'"));
        }
    }

    private static List<String> segments(String path) {
        String rest = path.substring("/api/v1".length());
        List<String> out = new ArrayList<>();
        for (String s : rest.split("/")) {
            if (!s.isEmpty()) {
                out.add(ConsoleCall.decode(s.replace("+", "%2B"))); // in a path '+' is itself, not a space
            }
        }
        return out;
    }

    private Answer route(String method, List<String> p, ConsoleCall call) {
        int n = p.size();
        String first = n == 0 ? "" : p.get(0);
        switch (first) {
            case "overview":
                if (n == 1) {
                    return get(method, p, () -> overview.get(call));
                }
                break;
            case "charts":
                if (n == 1) {
                    return get(method, p, charts::render);
                }
                break;
            case "topics":
                return topicRoute(method, p, call);
            case "groups":
                if (n == 1) {
                    return get(method, p, () -> groups.list(call));
                }
                if (n == 2) {
                    return get(method, p, () -> groups.get(call, p.get(1)));
                }
                if (n == 3 && p.get(2).equals("reset-offsets")) {
                    return post(method, p, () -> resetOffsets.reset(call, p.get(1)));
                }
                break;
            default:
                break;
        }
        throw ApiError.notFound("no console API route /api/v1/" + String.join("/", p));
    }

    private Answer topicRoute(String method, List<String> p, ConsoleCall call) {
        int n = p.size();
        if (n == 1) {
            return "POST".equals(method) ? topicActions.create(call) : get(method, p, () -> topics.list(call));
        }
        String topic = p.get(1);
        if (n == 2) {
            return get(method, p, () -> topics.get(call, topic));
        }
        String sub = p.get(2);
        if (n == 3 && sub.equals("configs")) {
            if (!"PATCH".equals(method)) {
                throw new ApiError(405, "METHOD_NOT_ALLOWED", "use PATCH on /api/v1/topics/{name}/configs");
            }
            return topicActions.alterConfigs(call, topic);
        }
        if (n == 3 && sub.equals("delete-records")) {
            return post(method, p, () -> topicActions.deleteRecords(call, topic));
        }
        if (n == 3 && sub.equals("messages")) {
            return "POST".equals(method) ? produce.produce(call, topic) : get(method, p, () -> messages.browse(call, topic));
        }
        if (n == 6 && sub.equals("partitions") && p.get(4).equals("messages")) {
            int partition = parseInt(p.get(3), "partition");
            long offset = parseLong(p.get(5), "offset");
            return get(method, p, () -> messages.one(call, topic, partition, offset));
        }
        throw ApiError.notFound("no console API route /api/v1/" + String.join("/", p));
    }

    private static int parseInt(String s, String what) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(what + " must be an integer, not '" + s + "'");
        }
    }

    private static long parseLong(String s, String what) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(what + " must be an integer, not '" + s + "'");
        }
    }

    private static Answer get(String method, List<String> p, java.util.function.Supplier<Answer> route) {
        if (!"GET".equals(method)) {
            throw new ApiError(405, "METHOD_NOT_ALLOWED", "method " + method + " is not allowed on /api/v1/"
                + String.join("/", p) + " (use GET)");
        }
        return route.get();
    }

    private static Answer post(String method, List<String> p, java.util.function.Supplier<Answer> route) {
        if (!"POST".equals(method)) {
            throw new ApiError(405, "METHOD_NOT_ALLOWED", "method " + method + " is not allowed on /api/v1/"
                + String.join("/", p) + " (use POST)");
        }
        return route.get();
    }
}
