/**
 * The pure-Java lattice arithmetic of CRYSTALS-Dilithium round 3.1 and ML-DSA (FIPS 204): one
 * file per mathematical layer, each function documenting its domain (plain, Montgomery, NTT) and
 * the ranges it takes and gives.
 *
 * <ul>
 *   <li>{@link io.dilithiumgpu.core.Keccak}, {@link io.dilithiumgpu.core.Shake}: the Keccak-f[1600]
 *       permutation and the SHAKE128/SHAKE256 sponge (FIPS 202).</li>
 *   <li>{@link io.dilithiumgpu.core.Field}: reductions mod q.</li>
 *   <li>{@link io.dilithiumgpu.core.Ntt}: forward and inverse NTT, pointwise products.</li>
 *   <li>{@link io.dilithiumgpu.core.Rounding}: Power2Round, Decompose, HighBits, LowBits,
 *       MakeHint, UseHint.</li>
 *   <li>{@link io.dilithiumgpu.core.Sampling}: ExpandA, ExpandS, ExpandMask, SampleInBall.</li>
 *   <li>{@link io.dilithiumgpu.core.Packing}: every byte encoding, strict hint decoding.</li>
 *   <li>{@link io.dilithiumgpu.core.PolyVec}: vector and matrix helpers, norm checks.</li>
 *   <li>{@link io.dilithiumgpu.core.Scheme}: key generation, signing, verification on bytes;
 *       {@link io.dilithiumgpu.core.MuHasher} and {@link io.dilithiumgpu.core.PreHash} build μ.</li>
 *   <li>{@link io.dilithiumgpu.core.PrivateKeyCache}, {@link io.dilithiumgpu.core.PublicKeyCache}:
 *       a key's decoded vectors, filled and read by {@code Scheme}.</li>
 * </ul>
 *
 * <h2>Constant-time inventory</h2>
 *
 * <p>"Branch-free" below means: no branch and no memory index depends on the secret values
 * passed through (loop bounds depend only on the parameter set). The JVM gives no formal
 * guarantee, but these routines use only add, subtract, multiply, shift, and, or, xor on
 * {@code int} and {@code long}. The CUDA kernels follow the same list.
 *
 * <p>Branch-free (they handle secret data while signing or generating keys):
 * <ul>
 *   <li>{@code Field}: montgomeryReduce, montgomeryMul, reduce32, caddq, freeze, abs.</li>
 *   <li>{@code Ntt}: forward, inverseToMont, pointwiseMontgomery (fixed twiddle schedule).</li>
 *   <li>{@code Rounding}: power2Round, highBits, lowBits, decompose, makeHintFromLowBits.</li>
 *   <li>{@code Packing}: every bit packer and unpacker, including unpackEta's range check,
 *       which ORs over all 256 coefficients and decides once.</li>
 *   <li>{@code PolyVec}: all arithmetic; exceedsNorm scans every coefficient it is given and
 *       reveals only whether the bound was exceeded, never where or with which sign;
 *       makeHints.</li>
 *   <li>{@code Sampling.expandMask}: fixed-length SHAKE256 output, no rejection.</li>
 *   <li>{@code ConstantTime.equal}: ORs the differences of every word and tail byte of both
 *       ranges and reveals only whether they are equal. {@code PrivateKeyCache} compares the
 *       packed key handed in with the copy the cache was filled from through it, and
 *       {@code KeyIdentity} a private key's bytes with the copy its identity is bound to; the
 *       copies of ŝ1, ŝ2, t̂0 are plain array copies.</li>
 *   <li>{@code Keccak} and {@code Shake}: fixed rounds of xor, and-not and rotation; the sponge's
 *       control flow depends only on the input and output lengths.</li>
 * </ul>
 *
 * <p>Deliberately variable-time, and why that is safe:
 * <ul>
 *   <li>The signing rejection loop ({@code Scheme.sign}): the number of attempts, which of
 *       the three norm checks or the hint count rejected an attempt, and the polynomial whose
 *       check failed (each check stops at the first polynomial over its bound) are revealed.
 *       The rejected candidates are discarded; the Dilithium round-3 specification (§5.5)
 *       shows that this leaks nothing about the key.</li>
 *   <li>{@code Sampling.rejNttPoly} (ExpandA): rejection on SHAKE128 output from the public ρ.</li>
 *   <li>{@code Sampling.rejBoundedPoly} (ExpandS): reveals which XOF nibbles were rejected
 *       (15 or more for η = 2, 9 or more for η = 4); rejected nibbles are independent of the
 *       accepted ones, which alone form s1 and s2.</li>
 *   <li>{@code Sampling.sampleInBall}: its loop depends on c̃ only; c̃ is a hash of μ and w1
 *       (modelled as a random oracle), published for the accepted attempt, and carries no
 *       information on the key for rejected ones either.</li>
 *   <li>{@code Packing.packHint} and {@code unpackHint}, {@code Rounding.useHint} and
 *       {@code makeHint} (the specification form, used by tests): they run on hints and
 *       signatures, which are public.</li>
 *   <li>Everything in verification, which handles only public data; {@code Scheme.verify}
 *       returns as soon as the signature is found malformed.</li>
 *   <li>The skDecode failure path of {@code Scheme.sign}: an out-of-range key returns
 *       false at once; the check itself is branch-free until that decision.</li>
 *   <li>The cache of Â in the pooled workspace compares the public ρ.</li>
 *   <li>Whether a signature or verification found its key's cache filled, which reveals how
 *       often the key was used (the cache fills at the second use) and nothing of its value;
 *       {@code PublicKeyCache} compares public key bytes with a plain comparison.</li>
 * </ul>
 *
 * <h2>Secrets</h2>
 *
 * <p>Secret temporaries (the seeds ρ′ and K, s1, s2, t0, y, w0, the XOF states) live in a
 * pooled workspace and are zeroed in a {@code finally} at the end of every key generation
 * and signing call, before the workspace goes back to its pool. No method keeps a reference to a
 * caller's array.
 *
 * <p>The one long-lived secret state is a {@code PrivateKeyCache}, owned by its private key: from
 * the key's second signature it holds ŝ1, ŝ2, t̂0 and a copy of the packed key, read under a read
 * lock and zeroed under the write lock by {@code destroy()}, which the key's own {@code destroy()}
 * calls. Never through a soft or weak reference: a collector would drop the arrays unwiped.
 */
package io.dilithiumgpu.core;
