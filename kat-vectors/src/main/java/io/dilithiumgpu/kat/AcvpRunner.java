package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Runs ACVP ML-DSA vector sets against a backend, one batch per test group (and per operation):
 * <ul>
 *   <li>keyGen: ML-DSA.KeyGen_internal(ξ) must give exactly {@code pk} and {@code sk};</li>
 *   <li>sigGen: the signature must equal {@code signature}. Seed-format keys (tr1) are first
 *       generated in one key-generation batch of the group; deterministic groups sign with
 *       rnd = 0, the others with the case's {@code rnd};</li>
 *   <li>sigVer: the verdict must equal {@code testPassed}.</li>
 * </ul>
 * Every case's expected answer is a success except sigVer's {@code testPassed = false}.
 */
public final class AcvpRunner {
    private AcvpRunner() {}

    public static SuiteReport keyGen(Backend backend, String suite, List<AcvpReader.KeyGenGroup> groups) {
        SuiteReport.Builder report = new SuiteReport.Builder(suite);
        for (AcvpReader.KeyGenGroup g : groups) {
            ParameterSet p = g.params();
            List<CaseResult> pending = new ArrayList<>();
            List<AcvpReader.KeyGenCase> cases = new ArrayList<>();
            List<byte[]> seeds = new ArrayList<>();
            for (AcvpReader.KeyGenCase c : g.cases()) {
                CaseResult r = new CaseResult("tcId " + c.tcId(), Expected.VALID);
                Optional<String> no = FrontEnd.keyGenRejection(c.seed());
                if (no.isPresent()) {
                    r.refuse(no.get());
                    report.add(r);
                    continue;
                }
                pending.add(r);
                cases.add(c);
                seeds.add(c.seed());
            }
            Batches.KeyGenResult keys = Batches.keyGen(backend, p, seeds);
            for (int t = 0; t < pending.size(); t++) {
                CaseResult r = pending.get(t);
                if (keys.status()[t] != TaskStatus.OK) {
                    r.mismatch("keygen status " + Batches.describe(keys.status()[t]));
                } else {
                    if (!Arrays.equals(keys.publicKeys()[t], cases.get(t).publicKey())) {
                        r.mismatch("pk differs");
                    }
                    if (!Arrays.equals(keys.privateKeys()[t], cases.get(t).privateKey())) {
                        r.mismatch("sk differs");
                    }
                }
                report.add(r);
            }
        }
        return report.build();
    }

    public static SuiteReport sigGen(Backend backend, String suite, List<AcvpReader.SigGenGroup> groups) {
        SuiteReport.Builder report = new SuiteReport.Builder(suite);
        for (AcvpReader.SigGenGroup g : groups) {
            ParameterSet p = g.params();
            List<CaseResult> results = new ArrayList<>();
            for (AcvpReader.SigGenCase c : g.cases()) {
                results.add(new CaseResult("tgId " + g.tgId() + " tcId " + c.tcId(), Expected.VALID));
            }
            byte[][] privateKeys = privateKeys(backend, g, results);

            List<byte[]> sks = new ArrayList<>();
            List<byte[]> mus = new ArrayList<>();
            List<byte[]> rnds = new ArrayList<>();
            List<Integer> signed = new ArrayList<>();
            for (int i = 0; i < g.cases().size(); i++) {
                AcvpReader.SigGenCase c = g.cases().get(i);
                CaseResult r = results.get(i);
                byte[] sk = privateKeys[i];
                if (sk == null) {
                    continue;
                }
                byte[] mu = TaskInputs.signMu(p, sk, c.message(), r);
                byte[] rnd = mu == null ? null : TaskInputs.signRnd(p, sk, mu, c.rnd(), r);
                if (rnd == null) {
                    continue;
                }
                sks.add(sk);
                mus.add(mu);
                rnds.add(rnd);
                signed.add(i);
            }
            Batches.SignResult sigs = Batches.sign(backend, p, sks, mus, rnds);
            for (int t = 0; t < signed.size(); t++) {
                int i = signed.get(t);
                CaseResult r = results.get(i);
                if (r.signStatus(sigs.status()[t])
                        && !Arrays.equals(sigs.signatures()[t], g.cases().get(i).signature())) {
                    r.mismatch("signature differs");
                }
            }
            results.forEach(report::add);
        }
        return report.build();
    }

    /**
     * The group's expanded private keys, by case: given (expanded format), or generated from the
     * seeds in one batch (seed format). Null where key generation was refused or failed; the
     * case's result says why.
     */
    private static byte[][] privateKeys(Backend backend, AcvpReader.SigGenGroup g, List<CaseResult> results) {
        int n = g.cases().size();
        byte[][] sks = new byte[n][];
        if (g.keyFormat() == AcvpReader.KeyFormat.EXPANDED) {
            for (int i = 0; i < n; i++) {
                sks[i] = g.cases().get(i).privateKey();
            }
            return sks;
        }
        List<byte[]> seeds = new ArrayList<>();
        List<Integer> generated = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] seed = g.cases().get(i).seed();
            Optional<String> no = FrontEnd.keyGenRejection(seed);
            if (no.isPresent()) {
                results.get(i).refuse(no.get());
            } else {
                seeds.add(seed);
                generated.add(i);
            }
        }
        Batches.KeyGenResult keys = Batches.keyGen(backend, g.params(), seeds);
        for (int t = 0; t < generated.size(); t++) {
            int i = generated.get(t);
            if (keys.status()[t] == TaskStatus.OK) {
                sks[i] = keys.privateKeys()[t];
            } else {
                results.get(i).mismatch("keygen status " + Batches.describe(keys.status()[t]));
            }
        }
        return sks;
    }

    public static SuiteReport sigVer(Backend backend, String suite, List<AcvpReader.SigVerGroup> groups) {
        SuiteReport.Builder report = new SuiteReport.Builder(suite);
        for (AcvpReader.SigVerGroup g : groups) {
            ParameterSet p = g.params();
            List<CaseResult> results = new ArrayList<>();
            List<byte[]> pks = new ArrayList<>();
            List<byte[]> mus = new ArrayList<>();
            List<byte[]> sigs = new ArrayList<>();
            List<CaseResult> pending = new ArrayList<>();
            for (AcvpReader.SigVerCase c : g.cases()) {
                CaseResult r = new CaseResult("tgId " + g.tgId() + " tcId " + c.tcId(),
                        c.testPassed() ? Expected.VALID : Expected.INVALID);
                results.add(r);
                byte[] mu = TaskInputs.verifyMu(p, c.publicKey(), c.signature(), c.message(), r);
                if (mu == null) {
                    continue;
                }
                pks.add(c.publicKey());
                mus.add(mu);
                sigs.add(c.signature());
                pending.add(r);
            }
            byte[] status = Batches.verify(backend, p, pks, mus, sigs);
            for (int t = 0; t < pending.size(); t++) {
                pending.get(t).verifyStatus(status[t]);
            }
            results.forEach(report::add);
        }
        return report.build();
    }
}
