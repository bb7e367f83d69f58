package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Runs Wycheproof ML-DSA files against a backend, one batch per operation and file, so valid and
 * invalid vectors share batches.
 *
 * <p>Verify files: the verdict (front-end refusal or backend status) must match {@code result}.
 *
 * <p>Sign files: seed-format keys are generated from {@code privateSeed} first (a seed of other
 * than 32 bytes is refused) and the public key must equal the group's {@code publicKey}. Each
 * test is then signed, deterministically (rnd = 0) unless it gives {@code rnd}. A {@code valid}
 * test passes when μ computed from {@code msg} and {@code ctx} equals its {@code mu}, the
 * signature equals its {@code sig}, and that signature verifies under the public key (a second,
 * verification batch). An {@code invalid} test passes when it is refused: by the JCA checks
 * (key length, context over 255 bytes) or by the backend (INVALID_KEY for s1 or s2 out of
 * range).
 *
 * <p>{@code acceptable} tests (none in the current files) are run like the others and counted
 * apart, with what happened noted in the report, since a conforming implementation may go either
 * way.
 */
public final class WycheproofRunner {
    private WycheproofRunner() {}

    public static SuiteReport verify(Backend backend, String suite, WycheproofReader.VerifyFile file) {
        ParameterSet p = file.params();
        List<CaseResult> results = new ArrayList<>();
        List<CaseResult> pending = new ArrayList<>();
        List<byte[]> pks = new ArrayList<>();
        List<byte[]> mus = new ArrayList<>();
        List<byte[]> sigs = new ArrayList<>();
        for (WycheproofReader.VerifyGroup g : file.groups()) {
            for (WycheproofReader.VerifyCase c : g.cases()) {
                CaseResult r = new CaseResult(id(c.tcId(), c.comment()), c.result());
                results.add(r);
                byte[] mu = TaskInputs.verifyMu(p, g.publicKey(), c.signature(), c.message(), r);
                if (mu == null) {
                    continue;
                }
                pending.add(r);
                pks.add(g.publicKey());
                mus.add(mu);
                sigs.add(c.signature());
            }
        }
        byte[] status = Batches.verify(backend, p, pks, mus, sigs);
        for (int t = 0; t < pending.size(); t++) {
            pending.get(t).verifyStatus(status[t]);
        }
        SuiteReport.Builder report = new SuiteReport.Builder(suite);
        results.forEach(report::add);
        return report.build();
    }

    /**
     * A group's key pair as the provider holds it. No private key: refused by the JCA checks
     * ({@code refusal}) or key generation failed (in {@code mismatches}).
     */
    private static final class GroupKey {
        byte[] privateKey;
        byte[] publicKey;
        String refusal;
        final List<String> mismatches = new ArrayList<>();
    }

    public static SuiteReport sign(Backend backend, String suite, WycheproofReader.SignFile file) {
        ParameterSet p = file.params();
        List<WycheproofReader.SignGroup> groups = file.groups();
        List<GroupKey> keys = file.seeded() ? generatedKeys(backend, p, groups) : givenKeys(groups);

        List<CaseResult> results = new ArrayList<>();
        List<CaseResult> pending = new ArrayList<>();
        List<WycheproofReader.SignCase> pendingCases = new ArrayList<>();
        List<GroupKey> pendingKeys = new ArrayList<>();
        List<byte[]> sks = new ArrayList<>();
        List<byte[]> mus = new ArrayList<>();
        List<byte[]> rnds = new ArrayList<>();
        for (int gi = 0; gi < groups.size(); gi++) {
            GroupKey key = keys.get(gi);
            for (WycheproofReader.SignCase c : groups.get(gi).cases()) {
                CaseResult r = new CaseResult(id(c.tcId(), c.comment()), c.result());
                results.add(r);
                key.mismatches.forEach(r::mismatch);
                if (key.refusal != null) {
                    r.refuse(key.refusal);
                    continue;
                }
                if (key.privateKey == null) {
                    continue; // key generation failed: its mismatch is already recorded
                }
                byte[] mu = TaskInputs.signMu(p, key.privateKey, c.message(), r);
                if (mu == null) {
                    continue;
                }
                if (c.mu() != null && !Arrays.equals(mu, c.mu())) {
                    r.mismatch("mu differs from the vector's");
                }
                byte[] rnd = TaskInputs.signRnd(p, key.privateKey, mu, c.rnd(), r);
                if (rnd == null) {
                    continue;
                }
                pending.add(r);
                pendingCases.add(c);
                pendingKeys.add(key);
                sks.add(key.privateKey);
                mus.add(mu);
                rnds.add(rnd);
            }
        }
        Batches.SignResult signed = Batches.sign(backend, p, sks, mus, rnds);

        // Every produced signature must verify under the group's public key, where it has one.
        List<CaseResult> checked = new ArrayList<>();
        List<byte[]> pks = new ArrayList<>();
        List<byte[]> vmus = new ArrayList<>();
        List<byte[]> vsigs = new ArrayList<>();
        for (int t = 0; t < pending.size(); t++) {
            CaseResult r = pending.get(t);
            if (!r.signStatus(signed.status()[t])) {
                continue;
            }
            byte[] sig = signed.signatures()[t];
            byte[] expected = pendingCases.get(t).signature();
            if (expected.length > 0 && !Arrays.equals(sig, expected)) {
                r.mismatch("signature differs from the vector's");
            }
            byte[] pk = pendingKeys.get(t).publicKey;
            if (pk == null) {
                r.mismatch("signed, but the vector gives no public key to verify with");
                continue;
            }
            checked.add(r);
            pks.add(pk);
            vmus.add(mus.get(t));
            vsigs.add(sig);
        }
        byte[] status = Batches.verify(backend, p, pks, vmus, vsigs);
        for (int t = 0; t < checked.size(); t++) {
            if (status[t] != TaskStatus.OK) {
                checked.get(t).mismatch("the produced signature does not verify ("
                        + Batches.describe(status[t]) + ")");
            }
        }

        SuiteReport.Builder report = new SuiteReport.Builder(suite);
        results.forEach(report::add);
        return report.build();
    }

    /** noseed files: the expanded key and public key as given. */
    private static List<GroupKey> givenKeys(List<WycheproofReader.SignGroup> groups) {
        List<GroupKey> keys = new ArrayList<>();
        for (WycheproofReader.SignGroup g : groups) {
            GroupKey k = new GroupKey();
            k.privateKey = g.privateKey();
            k.publicKey = g.publicKey();
            keys.add(k);
        }
        return keys;
    }

    /** seed files: one key-generation batch over every well-formed seed of the file. */
    private static List<GroupKey> generatedKeys(Backend backend, ParameterSet p,
                                                List<WycheproofReader.SignGroup> groups) {
        List<GroupKey> keys = new ArrayList<>();
        List<byte[]> seeds = new ArrayList<>();
        List<GroupKey> pending = new ArrayList<>();
        List<byte[]> expectedPks = new ArrayList<>();
        for (WycheproofReader.SignGroup g : groups) {
            GroupKey k = new GroupKey();
            keys.add(k);
            Optional<String> no = FrontEnd.keyGenRejection(g.privateSeed());
            if (no.isPresent()) {
                k.refusal = no.get();
                continue;
            }
            seeds.add(g.privateSeed());
            pending.add(k);
            expectedPks.add(g.publicKey());
        }
        Batches.KeyGenResult generated = Batches.keyGen(backend, p, seeds);
        for (int t = 0; t < pending.size(); t++) {
            GroupKey k = pending.get(t);
            if (generated.status()[t] != TaskStatus.OK) {
                k.mismatches.add("keygen status " + Batches.describe(generated.status()[t]));
                continue;
            }
            k.privateKey = generated.privateKeys()[t];
            k.publicKey = generated.publicKeys()[t];
            if (expectedPks.get(t) == null || !Arrays.equals(k.publicKey, expectedPks.get(t))) {
                k.mismatches.add("keygen pk differs from the group's publicKey");
            }
        }
        return keys;
    }

    private static String id(int tcId, String comment) {
        return comment.isEmpty() ? "tcId " + tcId : "tcId " + tcId + " (" + comment + ")";
    }
}
