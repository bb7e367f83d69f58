/**
 * Public parameter and key specs of the {@code DilithiumGPU} provider:
 * {@link io.dilithiumgpu.spec.MLDSAParameterSpec} for {@code Signature.setParameter} (context,
 * deterministic signing, external μ, HashML-DSA pre-hash), and the raw key specs
 * {@link io.dilithiumgpu.spec.RawPublicKeySpec}, {@link io.dilithiumgpu.spec.RawPrivateKeySpec} and
 * {@link io.dilithiumgpu.spec.SeedPrivateKeySpec} for the KeyFactory. All copy their arrays in and
 * out; the private-key specs can be destroyed.
 */
package io.dilithiumgpu.spec;
