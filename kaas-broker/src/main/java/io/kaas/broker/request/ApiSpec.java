package io.kaas.broker.request;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.auth.Check;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The contract of one API as data: its key, the versions served and advertised, the checks the
 * pipeline makes on the whole request ({@link Requirement}) and the per-resource questions its handler
 * may ask ({@link Check}). The registry builds ApiVersions from it and the pipeline applies it, so no
 * handler states its versions or opens its own access to the authorizer. Immutable; the rows live in
 * {@link ApiContracts}.
 *
 * @param api                  the API
 * @param minVersion           the lowest version served
 * @param advertisedMinVersion the lowest version advertised in ApiVersions (below {@code minVersion}
 *                             only for Produce, KAFKA-18659)
 * @param maxVersion           the highest version served and advertised
 * @param requirements         checks on the whole request, in order, made before the handler runs
 * @param checks               the questions a request may ask: the handler's per-resource checks, and
 *                             each requirement's own (added by the constructor)
 */
public record ApiSpec<Q extends ApiMessage, S extends ApiMessage>(ApiMessageType api, short minVersion,
                                                                  short advertisedMinVersion, short maxVersion,
                                                                  List<Requirement<Q, S>> requirements,
                                                                  List<Check> checks) {

    /**
     * @throws IllegalArgumentException if the versions are out of order or fall outside the schema's
     *                                  stable range
     */
    public ApiSpec {
        Objects.requireNonNull(api, "api");
        requirements = List.copyOf(requirements);
        checks = List.copyOf(checks);
        for (Requirement<Q, S> r : requirements) {
            Check asked = Check.of(r.operation(), r.type());
            if (!checks.contains(asked)) {
                checks = append(checks, asked);
            }
        }
        String name = api.apiName();
        if (minVersion > maxVersion) {
            throw new IllegalArgumentException(name + ": minVersion " + minVersion + " > maxVersion " + maxVersion);
        }
        if (advertisedMinVersion > minVersion) {
            throw new IllegalArgumentException(name + ": advertised from " + advertisedMinVersion
                    + ", above the lowest version served " + minVersion);
        }
        if (minVersion < api.lowestSupportedVersion()) {
            throw new IllegalArgumentException(name + ": minVersion " + minVersion
                    + " is below the schema's lowest version " + api.lowestSupportedVersion());
        }
        if (advertisedMinVersion < 0) {
            throw new IllegalArgumentException(name + ": advertised from a negative version " + advertisedMinVersion);
        }
        if (maxVersion > api.highestSupportedVersion()) {
            throw new IllegalArgumentException(name + ": maxVersion " + maxVersion
                    + " is above the schema's highest version " + api.highestSupportedVersion());
        }
        if (api.latestVersionUnstable() && maxVersion == api.highestSupportedVersion()) {
            throw new IllegalArgumentException(name + ": maxVersion " + maxVersion
                    + " is the schema's unstable latest version; never advertise it");
        }
    }

    /** {@code api} served and advertised from {@code min} to {@code max}, with no checks yet. */
    public static <Q extends ApiMessage, S extends ApiMessage> ApiSpec<Q, S> of(ApiMessageType api, int min, int max) {
        return new ApiSpec<>(api, (short) min, (short) min, (short) max, List.of(), List.of());
    }

    /** This contract advertised from {@code version}, below the lowest version served. */
    public ApiSpec<Q, S> advertisedFrom(int version) {
        return new ApiSpec<>(api, minVersion, (short) version, maxVersion, requirements, checks);
    }

    /** This contract plus a check on the whole request, made by the pipeline (see {@link Requirement}). */
    public ApiSpec<Q, S> requires(Operation operation, ResourceType type, Requirement.Resource<Q> resource,
                                  Requirement.Denial<Q, S> denial) {
        List<Requirement<Q, S>> more = new ArrayList<>(requirements);
        more.add(new Requirement<>(operation, type, resource, denial));
        return new ApiSpec<>(api, minVersion, advertisedMinVersion, maxVersion, more, checks);
    }

    /** This contract plus per-resource questions its handler may ask. */
    public ApiSpec<Q, S> checks(Check... more) {
        List<Check> all = new ArrayList<>(checks);
        all.addAll(List.of(more));
        return new ApiSpec<>(api, minVersion, advertisedMinVersion, maxVersion, requirements, all);
    }

    /** Whether {@code version} is served (not merely advertised). */
    public boolean serves(short version) {
        return version >= minVersion && version <= maxVersion;
    }

    private static List<Check> append(List<Check> checks, Check more) {
        List<Check> all = new ArrayList<>(checks);
        all.add(more);
        return List.copyOf(all);
    }
}
