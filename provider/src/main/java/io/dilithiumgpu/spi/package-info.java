/**
 * The JCA service implementations that {@link io.dilithiumgpu.DilithiumGpuProvider} registers:
 * one Signature, one KeyPairGenerator and one KeyFactory SPI for every name, each configured by a
 * {@link io.dilithiumgpu.spi.Family}, an optional fixed parameter set and, for HashML-DSA, a
 * pre-hash.
 *
 * <p>The SPIs hold JCA state only. Message hashing (μ) runs on the caller's thread through
 * {@code core.MuHasher}. Key generation goes to the shared {@code batch.Engine}
 * ({@code Engines.shared()}); each signature and verification takes the route the
 * {@code route.Router} chooses: computed on the caller's thread (by the core, or for the calls it
 * covers exactly by the JDK's own ML-DSA, {@code JdkSigning}), or sent to the shared engine. A
 * caller waiting for the engine parks on the returned future without holding a monitor, so
 * virtual threads release their carriers while a batch runs.
 *
 * <p>Exceptions: foreign or mismatched keys give {@code InvalidKeyException}; bad encodings and key
 * specs {@code InvalidKeySpecException}; bad signature parameters (context over 255 bytes, options
 * the algorithm lacks) {@code InvalidAlgorithmParameterException}; use before initialization, an
 * external μ that is not 64 bytes, or an interrupted wait {@code SignatureException} (the interrupt
 * flag is set again); a failed backend {@code ProviderException}. Verification of a signature of
 * the wrong length, or one that does not decode, returns {@code false}. No message contains key
 * bytes.
 *
 * <p>Secrets: the SPIs copy a private key only for the duration of one engine call and wipe the copy,
 * the signing randomness and every seed in {@code finally} blocks.
 */
package io.dilithiumgpu.spi;
