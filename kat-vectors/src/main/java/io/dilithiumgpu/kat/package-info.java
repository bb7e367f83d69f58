/**
 * Known-answer tests that run every stored vector against any
 * {@link io.dilithiumgpu.backend.Backend}: the CPU backend in this module's tests, the CUDA
 * backend in the GPU tests, and the {@code selftest} command.
 *
 * <h2>Layers</h2>
 * <ul>
 *   <li>{@link io.dilithiumgpu.kat.KatDirectory} finds the vectors (system property
 *       {@code kat.dir}, else {@code ../shared/kat-vectors} beside the repository root);
 *       {@link io.dilithiumgpu.kat.KatFiles} reads every file through its {@code SHA256SUMS}
 *       entry, so a missing or altered file stops the run.</li>
 *   <li>One reader per format turns files into typed vectors:
 *       {@link io.dilithiumgpu.kat.NistRspReader} (round-3.1 {@code PQCsignKAT_*.rsp}),
 *       {@link io.dilithiumgpu.kat.AcvpReader} (ACVP {@code prompt.json} joined with
 *       {@code expectedResults.json}), {@link io.dilithiumgpu.kat.WycheproofReader}.</li>
 *   <li>One runner per format plays the provider's part on the caller's thread — the
 *       {@link io.dilithiumgpu.kat.FrontEnd} argument checks, μ through {@code MuHasher}, the
 *       signing randomness through {@code Scheme.deterministicRnd} or the vector's rnd, round-3.1
 *       key seeds through {@link io.dilithiumgpu.kat.CtrDrbg} — and sends everything else to the
 *       backend as real batches: one per file or ACVP test group and operation, valid and
 *       invalid vectors mixed.</li>
 *   <li>{@link io.dilithiumgpu.kat.KatSuites} lists every suite with its pinned vector count;
 *       {@link io.dilithiumgpu.kat.KatSuites#runAll} runs them all and returns a
 *       {@link io.dilithiumgpu.kat.KatReport}: per suite, vectors passed (and of those, invalid
 *       inputs correctly refused), failed with reasons, and acceptable.</li>
 * </ul>
 *
 * <h2>Verdicts</h2>
 * A vector expecting success passes when nothing is refused and every produced value equals the
 * vector's; a vector expecting failure passes when the provider refuses it, either in the
 * {@code FrontEnd} checks (which never reach a backend, exactly as in the provider) or through a
 * backend status (REJECTED, INVALID_KEY). Wycheproof's {@code acceptable} vectors are run and
 * counted apart, never as failures, with the outcome recorded.
 *
 * <p>Everything here is public test data: keys are not wiped.
 */
package io.dilithiumgpu.kat;
