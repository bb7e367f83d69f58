package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every known-answer suite of the project, with its exact vector count, and a one-call run of
 * them all against any {@link Backend}. The counts are pinned here: a file with more or fewer
 * vectors fails its suite.
 *
 * <table>
 *   <caption>Suites</caption>
 *   <tr><th>suite</th><th>vectors</th></tr>
 *   <tr><td>round 3.1 {@code PQCsignKAT_Dilithium{2,3,5}.rsp}</td><td>100 each</td></tr>
 *   <tr><td>ACVP keyGen / sigGen / sigGen-tr1 / sigVer</td><td>75 / 360 / 720 / 180</td></tr>
 *   <tr><td>Wycheproof {@code mldsa_{44,65,87}_verify}</td><td>180 / 210 / 241</td></tr>
 *   <tr><td>Wycheproof {@code mldsa_{44,65,87}_sign_seed}</td><td>86 / 105 / 96</td></tr>
 *   <tr><td>Wycheproof {@code mldsa_{44,65,87}_sign_noseed}</td><td>73 / 78 / 69</td></tr>
 * </table>
 */
public final class KatSuites {
    private KatSuites() {}

    /** All suites, reading their files from {@code files}. */
    public static List<KatSuite> all(KatFiles files) {
        List<KatSuite> suites = new ArrayList<>();
        for (int level : new int[] {2, 3, 5}) {
            String path = "dilithium-r31/PQCsignKAT_Dilithium" + level + ".rsp";
            suites.add(new KatSuite(path, 100, backend -> NistRspRunner.run(backend, path,
                    NistRspReader.parse(files.readString(path)))));
        }
        suites.add(acvp(files, "ML-DSA-keyGen-FIPS204", 75, (b, name, prompt, expected) ->
                AcvpRunner.keyGen(b, name, AcvpReader.keyGen(prompt, expected))));
        suites.add(acvp(files, "ML-DSA-sigGen-FIPS204", 360, (b, name, prompt, expected) ->
                AcvpRunner.sigGen(b, name, AcvpReader.sigGen(prompt, expected))));
        suites.add(acvp(files, "ML-DSA-sigGen-FIPS204-tr1", 720, (b, name, prompt, expected) ->
                AcvpRunner.sigGen(b, name, AcvpReader.sigGen(prompt, expected))));
        suites.add(acvp(files, "ML-DSA-sigVer-FIPS204", 180, (b, name, prompt, expected) ->
                AcvpRunner.sigVer(b, name, AcvpReader.sigVer(prompt, expected))));
        int[][] counts = {{44, 180, 86, 73}, {65, 210, 105, 78}, {87, 241, 96, 69}};
        for (int[] c : counts) {
            String stem = "wycheproof/mldsa_" + c[0];
            suites.add(wycheproof(files, stem + "_verify", c[1], true));
            suites.add(wycheproof(files, stem + "_sign_seed", c[2], false));
            suites.add(wycheproof(files, stem + "_sign_noseed", c[3], false));
        }
        return List.copyOf(suites);
    }

    /**
     * Runs every suite against the backend, in order, and collects the reports. The caller keeps
     * ownership of the backend.
     *
     * @throws KatDataException if the vector directory or any file is missing or altered
     */
    public static KatReport runAll(Backend backend, Path katDir) {
        List<SuiteReport> reports = new ArrayList<>();
        for (KatSuite suite : all(KatFiles.open(katDir))) {
            reports.add(suite.run(backend));
        }
        return new KatReport(backend.name(), reports);
    }

    @FunctionalInterface
    private interface AcvpRun {
        SuiteReport run(Backend backend, String name, byte[] prompt, byte[] expectedResults);
    }

    private static KatSuite acvp(KatFiles files, String folder, int count, AcvpRun run) {
        String name = "acvp/" + folder;
        return new KatSuite(name, count, backend -> run.run(backend, name,
                files.read(name + "/prompt.json"), files.read(name + "/expectedResults.json")));
    }

    private static KatSuite wycheproof(KatFiles files, String stem, int count, boolean verify) {
        String path = stem + "_test.json";
        return new KatSuite(stem, count, backend -> verify
                ? WycheproofRunner.verify(backend, stem, WycheproofReader.verify(files.read(path), path))
                : WycheproofRunner.sign(backend, stem, WycheproofReader.sign(files.read(path), path)));
    }
}
