package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgsTest {
    private static final Set<String> VALUED = Set.of("batch", "runs", "sets", "out", "sizes", "seconds", "backend");
    private static final Set<String> FLAGS = Set.of("quick");

    private static Args parse(String... argv) throws UsageException {
        return Args.parse(argv, VALUED, FLAGS);
    }

    @Test
    void valuesBothSpellingsAndFlags() throws UsageException {
        Args a = parse("--batch", "500", "--runs=12", "--quick", "--out", "results");
        assertEquals(500, a.positiveCount("batch", 10_000));
        assertEquals(12, a.positiveCount("runs", 10));
        assertTrue(a.flag("quick"));
        assertEquals(Optional.of(Path.of("results")), a.path("out"));
        assertTrue(a.has("batch"));
        assertFalse(a.has("sizes"));
    }

    @Test
    void defaultsWhenAbsent() throws UsageException {
        Args a = parse();
        assertEquals(10_000, a.positiveCount("batch", 10_000));
        assertEquals(3, a.count("runs", 3));
        assertFalse(a.flag("quick"));
        assertEquals(Optional.empty(), a.path("out"));
        assertEquals(List.of(ParameterSet.values()), a.sets("sets"));
        assertEquals(1.5, a.seconds("seconds", 1.5));
        assertEquals(List.of(1, 2), a.counts("sizes", List.of(1, 2)));
    }

    @Test
    void countSuffixesAndSeparators() throws UsageException {
        assertEquals(10_000, Args.parseCount("x", "10000"));
        assertEquals(10_000, Args.parseCount("x", "10_000"));
        assertEquals(10_000, Args.parseCount("x", "10k"));
        assertEquals(100_000, Args.parseCount("x", "100K"));
        assertEquals(2_000_000, Args.parseCount("x", "2M"));
        assertEquals(0, Args.parseCount("x", "0"));
        assertThrows(UsageException.class, () -> Args.parseCount("x", ""));
        assertThrows(UsageException.class, () -> Args.parseCount("x", "k"));
        assertThrows(UsageException.class, () -> Args.parseCount("x", "-5"));
        assertThrows(UsageException.class, () -> Args.parseCount("x", "1.5k"));
        assertThrows(UsageException.class, () -> Args.parseCount("x", "3000M"));
        assertThrows(UsageException.class, () -> Args.parseCount("x", "99999999999"));
    }

    @Test
    void countLists() throws UsageException {
        assertEquals(List.of(100, 1_000, 100_000), parse("--sizes", "100, 1k,100_000").counts("sizes", List.of()));
        assertThrows(UsageException.class, () -> parse("--sizes", "100,,200").counts("sizes", List.of()));
        assertThrows(UsageException.class, () -> parse("--sizes", "0,5").counts("sizes", List.of()));
    }

    @Test
    void positiveAndNonNegativeBounds() throws UsageException {
        assertThrows(UsageException.class, () -> parse("--batch", "0").positiveCount("batch", 1));
        assertEquals(0, parse("--runs", "0").count("runs", 5));
    }

    @Test
    void parameterSetsByNameAndAll() throws UsageException {
        assertEquals(List.of(ParameterSet.ML_DSA_65, ParameterSet.DILITHIUM2),
                parse("--sets", "ml-dsa-65,Dilithium2,MLDSA65").sets("sets"));
        assertEquals(List.of(ParameterSet.values()), parse("--sets", "ALL").sets("sets"));
        UsageException e = assertThrows(UsageException.class, () -> parse("--sets", "ML-DSA-99").sets("sets"));
        assertTrue(e.getMessage().contains("ML-DSA-99"), e.getMessage());
    }

    @Test
    void operationsInCanonicalOrder() throws UsageException {
        Set<String> valued = Set.of("ops");
        assertEquals(List.of(Operation.KEYGEN, Operation.SIGN, Operation.VERIFY),
                Args.parse(new String[0], valued, Set.of()).operations("ops"));
        assertEquals(List.of(Operation.SIGN, Operation.VERIFY),
                Args.parse(new String[] {"--ops", "Verify,sign,SIGN"}, valued, Set.of()).operations("ops"));
        assertThrows(UsageException.class,
                () -> Args.parse(new String[] {"--ops", "sign,decrypt"}, valued, Set.of()).operations("ops"));
    }

    @Test
    void secondsMustBePositiveAndFinite() throws UsageException {
        assertEquals(0.25, parse("--seconds", "0.25").seconds("seconds", 1));
        assertThrows(UsageException.class, () -> parse("--seconds", "0").seconds("seconds", 1));
        assertThrows(UsageException.class, () -> parse("--seconds", "NaN").seconds("seconds", 1));
        assertThrows(UsageException.class, () -> parse("--seconds", "Infinity").seconds("seconds", 1));
        assertThrows(UsageException.class, () -> parse("--seconds", "soon").seconds("seconds", 1));
    }

    @Test
    void choicesIgnoreCase() throws UsageException {
        assertEquals("cuda", parse("--backend", "CUDA").choice("backend", "all", "cpu", "cuda", "all"));
        assertEquals("all", parse().choice("backend", "all", "cpu", "cuda", "all"));
        assertThrows(UsageException.class, () -> parse("--backend", "tpu").choice("backend", "all", "cpu", "cuda"));
    }

    @Test
    void malformedCommandLinesAreRejected() {
        assertThrows(UsageException.class, () -> parse("--bogus", "1"));
        assertThrows(UsageException.class, () -> parse("--batch"));
        assertThrows(UsageException.class, () -> parse("--quick=yes"));
        assertThrows(UsageException.class, () -> parse("--runs", "3", "--runs", "4"));
        assertThrows(UsageException.class, () -> parse("--quick", "--quick"));
        assertThrows(UsageException.class, () -> parse("stray"));
        assertThrows(UsageException.class, () -> parse("--"));
    }
}
