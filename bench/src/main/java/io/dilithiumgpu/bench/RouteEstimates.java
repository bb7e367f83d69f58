package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.route.Router;

import java.util.Locale;
import java.util.Map;

/** The shared router's cost estimates for one set and operation, and its calls in flight, as it weighs them now. */
final class RouteEstimates {
    private RouteEstimates() {}

    /** For example {@code router: direct 251 µs, batch 540 µs, jdk 212 µs, core engine 262 µs, jdk
     * engine 205 µs, 1 in flight, 3 trials (1 won), host busy, batch host cpu 41 µs, 5120 host-batched}
     * (a route not measured is left out; the trials and the host-batched calls, since the process
     * started, only once there was one; the batch route's host CPU once measured). */
    static String of(ParameterSet p, Operation op) {
        Router r = Router.shared();
        Map<String, Long> nanos = r.getEstimateNanos();
        StringBuilder s = new StringBuilder("router:");
        for (String route : new String[] {"direct", "batch", "jdk"}) {
            Long n = nanos.get(p + " " + op.name().toLowerCase(Locale.ROOT) + " " + route);
            if (n != null) {
                s.append(String.format(Locale.ROOT, " %s %.0f µs,", route, n / 1e3));
            }
        }
        if (op == Operation.SIGN) {
            Map<String, Long> costs = r.getEngineCostNanos();
            for (String engine : new String[] {"core", "jdk"}) {
                Long n = costs.get(p + " " + engine);
                if (n != null) {
                    s.append(String.format(Locale.ROOT, " %s engine %.0f µs,", engine, n / 1e3));
                }
            }
        }
        s.append(' ').append(r.getInFlight()).append(" in flight");
        long trials = r.getTrialCount();
        if (trials > 0) {
            s.append(", ").append(trials).append(trials == 1 ? " trial (" : " trials (").append(r.getTrialsWon())
                    .append(" won)");
        }
        if (r.getHostBusy()) {
            s.append(", host busy");
        }
        long host = r.getBatchHostNanos();
        if (host > 0) {
            s.append(String.format(Locale.ROOT, ", batch host cpu %.0f µs", host / 1e3));
        }
        long hostBatched = r.getHostBatchCount();
        if (hostBatched > 0) {
            s.append(", ").append(hostBatched).append(" host-batched");
        }
        return s.toString();
    }
}
