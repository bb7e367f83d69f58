/**
 * Keys of the six parameter sets and their encodings.
 *
 * <ul>
 *   <li>{@link io.dilithiumgpu.key.DilithiumPublicKey}, {@link io.dilithiumgpu.key.DilithiumPrivateKey}:
 *       the key classes every service of the provider produces.</li>
 *   <li>{@link io.dilithiumgpu.key.Spki}, {@link io.dilithiumgpu.key.Pkcs8}: X.509 and PKCS#8
 *       (RFC 9881 for ML-DSA; raw keys under the round 3.1 OIDs), strict DER through BouncyCastle's
 *       ASN.1 classes. The formats are described in {@code docs/encodings.md}.</li>
 *   <li>{@link io.dilithiumgpu.key.Oids}, {@link io.dilithiumgpu.key.PrivateKeyForm}: the object
 *       identifiers, and the three private-key forms with the {@code dilithiumgpu.pkcs8.format}
 *       property.</li>
 * </ul>
 *
 * <p>Ownership: no method keeps an array it is given or exposes one it holds. Key factories copy
 * their arguments; accessors return fresh copies that the caller owns; the private key holds the
 * only long-lived copy of its seed and expanded key and zeroes both in {@code destroy()}. Transient
 * copies of private bytes made while encoding or decoding, BouncyCastle's included, are wiped
 * before the method returns.
 *
 * <p>This package knows nothing of the batcher: expanding a seed into a key is the SPI's job.
 */
package io.dilithiumgpu.key;
