package io.dilithiumgpu.kat;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AcvpReaderTest {

    private static byte[] read(String folder, String file) {
        return KatFiles.open().read("acvp/" + folder + "/" + file);
    }

    @Test
    void joinsKeyGen() {
        List<AcvpReader.KeyGenGroup> groups = AcvpReader.keyGen(
                read("ML-DSA-keyGen-FIPS204", "prompt.json"), read("ML-DSA-keyGen-FIPS204", "expectedResults.json"));
        assertEquals(75, groups.stream().mapToInt(g -> g.cases().size()).sum());
        for (AcvpReader.KeyGenGroup g : groups) {
            for (AcvpReader.KeyGenCase c : g.cases()) {
                assertEquals(g.params().publicKeyBytes(), c.publicKey().length);
                assertEquals(g.params().privateKeyBytes(), c.privateKey().length);
            }
        }
    }

    @Test
    void joinsBothSigGenRevisionsWithEveryMessageShape() {
        for (String folder : new String[] {"ML-DSA-sigGen-FIPS204", "ML-DSA-sigGen-FIPS204-tr1"}) {
            List<AcvpReader.SigGenGroup> groups = AcvpReader.sigGen(
                    read(folder, "prompt.json"), read(folder, "expectedResults.json"));
            int pure = 0, preHashed = 0, internal = 0, external = 0, seeded = 0, total = 0;
            for (AcvpReader.SigGenGroup g : groups) {
                for (AcvpReader.SigGenCase c : g.cases()) {
                    total++;
                    MessageInput m = c.message();
                    if (m instanceof MessageInput.Pure) pure++;
                    if (m instanceof MessageInput.PreHashed) preHashed++;
                    if (m instanceof MessageInput.Internal) internal++;
                    if (m instanceof MessageInput.ExternalMu) external++;
                    if (c.seed() != null) seeded++;
                    assertEquals(g.params().signatureBytes(), c.signature().length);
                    if (g.deterministic()) {
                        assertNull(c.rnd());
                    }
                }
            }
            boolean tr1 = folder.endsWith("tr1");
            assertEquals(tr1 ? 720 : 360, total, folder);
            assertEquals(total / 4, pure, folder);
            assertEquals(total / 4, preHashed, folder);
            assertEquals(total / 4, internal, folder);
            assertEquals(total / 4, external, folder);
            assertEquals(tr1 ? 360 : 0, seeded, folder);
        }
    }

    @Test
    void joinsSigVer() {
        List<AcvpReader.SigVerGroup> groups = AcvpReader.sigVer(
                read("ML-DSA-sigVer-FIPS204", "prompt.json"), read("ML-DSA-sigVer-FIPS204", "expectedResults.json"));
        List<AcvpReader.SigVerCase> cases = groups.stream().flatMap(g -> g.cases().stream()).toList();
        assertEquals(180, cases.size());
        assertEquals(36, cases.stream().filter(AcvpReader.SigVerCase::testPassed).count());
    }

    private static final String PROMPT = "{\"vsId\":1,\"algorithm\":\"ML-DSA\",\"mode\":\"keyGen\",\"testGroups\":"
            + "[{\"tgId\":1,\"testType\":\"AFT\",\"parameterSet\":\"ML-DSA-44\",\"tests\":[{\"tcId\":1,\"seed\":\"00\"}]}]}";
    private static final String ANSWER = "{\"vsId\":1,\"algorithm\":\"ML-DSA\",\"mode\":\"keyGen\",\"testGroups\":"
            + "[{\"tgId\":1,\"tests\":[%s]}]}";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyPromptNeedsExactlyOneAnswer() {
        String one = "{\"tcId\":1,\"pk\":\"01\",\"sk\":\"02\"}";
        String other = "{\"tcId\":2,\"pk\":\"01\",\"sk\":\"02\"}";
        assertEquals(1, AcvpReader.keyGen(utf8(PROMPT), utf8(String.format(ANSWER, one))).size());
        assertTrue(assertThrows(KatDataException.class,
                () -> AcvpReader.keyGen(utf8(PROMPT), utf8(String.format(ANSWER, other))))
                .getMessage().contains("no answer"));
        assertTrue(assertThrows(KatDataException.class,
                () -> AcvpReader.keyGen(utf8(PROMPT), utf8(String.format(ANSWER, one + "," + other))))
                .getMessage().contains("without a prompt"));
        assertThrows(KatDataException.class,
                () -> AcvpReader.keyGen(utf8(PROMPT.replace("keyGen", "sigGen")), utf8(String.format(ANSWER, one))));
    }

    @Test
    void messageShapesFollowTheGroupFlags() {
        List<AcvpReader.SigGenGroup> groups = AcvpReader.sigGen(
                read("ML-DSA-sigGen-FIPS204", "prompt.json"), read("ML-DSA-sigGen-FIPS204", "expectedResults.json"));
        AcvpReader.SigGenGroup first = groups.get(0);
        assertEquals(1, first.tgId());
        assertInstanceOf(MessageInput.Pure.class, first.cases().get(0).message());
        assertEquals(AcvpReader.KeyFormat.EXPANDED, first.keyFormat());
    }
}
