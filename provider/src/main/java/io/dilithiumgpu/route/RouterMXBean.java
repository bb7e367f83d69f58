package io.dilithiumgpu.route;

import java.util.Map;

/**
 * The JCA calls' routes, registered as {@code io.dilithiumgpu:type=Router} by
 * {@link Router#shared()}. Counts start at zero when the router is made and only grow.
 */
public interface RouterMXBean {

    /** The {@value RouteSetting#PROPERTY} setting now: {@code auto}, {@code direct}, {@code batch} or {@code jdk}. */
    String getSetting();

    /** Signatures and verifications run on their callers' threads by this provider's core. */
    long getDirectCount();

    /** Signatures and verifications run through the batcher. */
    long getBatchCount();

    /** Signatures run on their callers' threads by the JDK's own ML-DSA. */
    long getJdkCount();

    /**
     * Direct signatures whose rejection loop helper threads joined, on cores the calls in flight
     * left idle ({@link Router#spareCores}), since the process started.
     */
    long getSharedSignatureCount();

    /** Attempts of those signatures' loops that the helper threads ran to their end. */
    long getHelperAttemptCount();

    /** Calls running on their callers' threads now (both direct routes). */
    int getDirectRunning();

    /** This provider's signatures and verifications in flight over every route, as last sampled. */
    int getInFlight();

    /**
     * Whether the process used at least nine tenths of its cores over the last tenth of a second
     * (sampled while the batcher runs on a GPU).
     */
    boolean getHostBusy();

    /**
     * The host CPU this provider's own threads (dispatcher, batch threads, a GPU's stream workers)
     * spent per batched call lately, in nanoseconds; 0 until measured.
     */
    long getBatchHostNanos();

    /**
     * Calls that would have ended sooner on their callers' threads but went to the batcher, because
     * the host's cores were busy with other work and the batcher cost the host less CPU per call.
     */
    long getHostBatchCount();

    /**
     * The calls the router sent to their callers' threads while the batcher runs on a GPU, by why:
     * {@code measure} (the direct route's estimate warming up, or due for its refresh),
     * {@code rule} (a call on its caller's thread ends sooner than the batch round trip at this
     * load), {@code probe} (the direct engine's last call said it would, though its average says
     * not) and {@code trial} (a saturation trial of the direct route took every call). Signatures
     * on the JDK's engine are not among them.
     */
    Map<String, Long> getDirectReasons();

    /**
     * Trials of the other route by the calls it completes, run while the cores were full
     * ({@code SaturationTrial}), over every operation and set.
     */
    long getTrialCount();

    /** Trials whose route completed more calls and took them over. */
    long getTrialsWon();


    /**
     * The measured time per call in nanoseconds, by set, operation and route (for example
     * {@code "ML-DSA-44 sign direct"}): on a caller's thread, or the round trip through the batcher.
     * Only the measured ones appear.
     */
    Map<String, Long> getEstimateNanos();

    /**
     * Each signing engine's mean time per signature over the last duel between them (both measured
     * in one window; {@code EngineDuel}), in nanoseconds, by
     * set and engine (for example {@code "ML-DSA-44 core"} and {@code "ML-DSA-44 jdk"}): what the
     * choice between this provider's core and the JDK's ML-DSA weighs. Only the measured ones appear.
     */
    Map<String, Long> getEngineCostNanos();
}
