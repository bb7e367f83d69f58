package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionTypesTest {

    @Test
    void countSuffixesAndSeparators() {
        assertEquals(10_000, OptionTypes.parseCount("10000"));
        assertEquals(10_000, OptionTypes.parseCount("10_000"));
        assertEquals(10_000, OptionTypes.parseCount("10k"));
        assertEquals(100_000, OptionTypes.parseCount("100K"));
        assertEquals(1_000, OptionTypes.parseCount(" 1k"));
        assertEquals(2_000_000, OptionTypes.parseCount("2M"));
        assertEquals(0, OptionTypes.parseCount("0"));
        for (String bad : List.of("", "k", "-5", "1.5k", "3000M", "99999999999")) {
            assertThrows(TypeConversionException.class, () -> OptionTypes.parseCount(bad), bad);
        }
    }

    @Test
    void positiveAndNonNegativeBounds() {
        assertThrows(TypeConversionException.class, () -> new OptionTypes.PositiveCount().convert("0"));
        assertEquals(0, new OptionTypes.Count().convert("0"));
        assertEquals(5, new OptionTypes.PositiveCount().convert("5"));
    }

    @Test
    void countListsConvertEachValue() {
        SweepCli sweep = Cli.parse(new SweepCli(), "--out", "x", "--sizes", "100, 1k,100_000");
        assertEquals(List.of(100, 1_000, 100_000), sweep.sizes);
    }

    @Test
    void parameterSetsByNameAndAll() {
        OptionTypes.Sets sets = new OptionTypes.Sets();
        assertEquals(List.of(ParameterSet.ML_DSA_65, ParameterSet.DILITHIUM2),
                sets.convert("ml-dsa-65,Dilithium2,MLDSA65").sets());
        assertEquals(List.of(ParameterSet.values()), sets.convert("ALL").sets());
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> sets.convert("ML-DSA-99"));
        assertTrue(e.getMessage().contains("ML-DSA-99"), e.getMessage());
    }

    @Test
    void operationsInCanonicalOrder() {
        OptionTypes.OperationName op = new OptionTypes.OperationName();
        assertEquals(Operation.VERIFY, op.convert("Verify"));
        assertThrows(TypeConversionException.class, () -> op.convert("decrypt"));
        assertEquals(List.of(Operation.SIGN, Operation.VERIFY),
                OptionTypes.inOrder(List.of(Operation.VERIFY, Operation.SIGN, Operation.SIGN)));
    }

    @Test
    void secondsMustBePositiveAndFinite() {
        OptionTypes.Seconds seconds = new OptionTypes.Seconds();
        assertEquals(0.25, seconds.convert("0.25"));
        for (String bad : List.of("0", "NaN", "Infinity", "soon")) {
            assertThrows(TypeConversionException.class, () -> seconds.convert(bad), bad);
        }
    }
}
