package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a round-3.1 {@code PQCsignKAT_*.rsp} file against a backend. Each record passes when all
 * four hold:
 * <ol>
 *   <li>key generation from ζ, the first 32 bytes of the CTR_DRBG seeded with the record's
 *       {@code seed}, gives exactly its {@code pk} and {@code sk};</li>
 *   <li>deterministic signing of {@code msg} with the record's {@code sk} (ρ′ = H(K ‖ μ)) gives
 *       exactly the signature part of {@code sm};</li>
 *   <li>that signature verifies under {@code pk};</li>
 *   <li>with one bit flipped it does not. Record i of n flips the bit in the middle of the i-th of n
 *       equal slices of σ, so the records between them hit c̃, z and the hint bytes.</li>
 * </ol>
 * The file makes three batches: one key generation of all records, one signing, and one
 * verification mixing the genuine and the flipped signatures.
 */
public final class NistRspRunner {
    private NistRspRunner() {}

    public static SuiteReport run(Backend backend, String suite, NistRspReader.RspFile file) {
        ParameterSet p = file.params();
        if (p.isFips204()) {
            throw new KatDataException(suite + ": the NIST .rsp runner is for round-3.1 sets, not " + p);
        }
        List<NistRspReader.Record> records = file.records();
        int n = records.size();
        int sigBytes = p.signatureBytes();
        List<CaseResult> results = new ArrayList<>(n);
        for (NistRspReader.Record rec : records) {
            results.add(new CaseResult("count " + rec.count(), Expected.VALID));
            if (rec.signedMessage().length != sigBytes + rec.message().length
                    || !Arrays.equals(rec.signedMessage(), sigBytes, rec.signedMessage().length,
                                      rec.message(), 0, rec.message().length)) {
                throw new KatDataException(suite + " count " + rec.count() + ": sm is not a "
                        + sigBytes + "-byte signature followed by msg");
            }
        }

        // 1. Key generation from the DRBG's first 32 bytes.
        List<byte[]> seeds = new ArrayList<>(n);
        for (NistRspReader.Record rec : records) {
            try (CtrDrbg drbg = new CtrDrbg(rec.seed())) {
                seeds.add(drbg.nextBytes(ParameterSet.SEED_BYTES));
            }
        }
        Batches.KeyGenResult keys = Batches.keyGen(backend, p, seeds);
        for (int i = 0; i < n; i++) {
            CaseResult r = results.get(i);
            NistRspReader.Record rec = records.get(i);
            if (keys.status()[i] != TaskStatus.OK) {
                r.mismatch("keygen status " + Batches.describe(keys.status()[i]));
            } else {
                if (!Arrays.equals(keys.publicKeys()[i], rec.publicKey())) {
                    r.mismatch("keygen pk differs");
                }
                if (!Arrays.equals(keys.privateKeys()[i], rec.privateKey())) {
                    r.mismatch("keygen sk differs");
                }
            }
        }

        // 2. Deterministic signing with the record's own sk.
        List<byte[]> sks = new ArrayList<>();
        List<byte[]> mus = new ArrayList<>();
        List<byte[]> rnds = new ArrayList<>();
        List<Integer> signed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            NistRspReader.Record rec = records.get(i);
            MessageInput m = new MessageInput.Internal(rec.message());
            byte[] mu = TaskInputs.signMu(p, rec.privateKey(), m, results.get(i));
            if (mu == null) {
                continue;
            }
            sks.add(rec.privateKey());
            mus.add(mu);
            rnds.add(TaskInputs.signRnd(p, rec.privateKey(), mu, null, results.get(i)));
            signed.add(i);
        }
        Batches.SignResult sigs = Batches.sign(backend, p, sks, mus, rnds);
        for (int t = 0; t < signed.size(); t++) {
            int i = signed.get(t);
            CaseResult r = results.get(i);
            if (r.signStatus(sigs.status()[t]) && !Arrays.equals(sigs.signatures()[t], 0, sigBytes,
                                      records.get(i).signedMessage(), 0, sigBytes)) {
                r.mismatch("signature differs from sm");
            }
        }

        // 3. Verification of the vector's signature, and of it with one bit flipped.
        List<byte[]> pks = new ArrayList<>();
        List<byte[]> vmus = new ArrayList<>();
        List<byte[]> vsigs = new ArrayList<>();
        List<Integer> verified = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            NistRspReader.Record rec = records.get(i);
            byte[] sig = Arrays.copyOf(rec.signedMessage(), sigBytes);
            byte[] mu = TaskInputs.verifyMu(p, rec.publicKey(), sig, new MessageInput.Internal(rec.message()),
                    results.get(i));
            if (mu == null) {
                continue;
            }
            pks.add(rec.publicKey());
            vmus.add(mu);
            vsigs.add(sig);
            verified.add(i);
        }
        int genuine = verified.size();
        for (int t = 0; t < genuine; t++) {
            int i = verified.get(t);
            byte[] flipped = vsigs.get(t).clone();
            int bit = flippedBit(i, n, sigBytes);
            flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
            pks.add(pks.get(t));
            vmus.add(vmus.get(t));
            vsigs.add(flipped);
        }
        byte[] status = Batches.verify(backend, p, pks, vmus, vsigs);
        for (int t = 0; t < genuine; t++) {
            CaseResult r = results.get(verified.get(t));
            r.verifyStatus(status[t]);
            if (status[genuine + t] != TaskStatus.REJECTED) {
                r.mismatch("verify with bit " + flippedBit(verified.get(t), n, sigBytes)
                        + " flipped gave " + Batches.describe(status[genuine + t]));
            }
        }

        SuiteReport.Builder report = new SuiteReport.Builder(suite);
        results.forEach(report::add);
        return report.build();
    }

    /** The bit of σ flipped for record {@code index} of {@code n}: the middle of its slice. */
    static int flippedBit(int index, int n, int signatureBytes) {
        return (int) ((2L * index + 1) * 8 * signatureBytes / (2L * n));
    }
}
