package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order the lanes take the cases in (running them needs a guest: the siw suite's JrnicSiwMatrixTest). */
class MatrixLanesTest {
    /** A case that only has a name and a fresh-guest wish (the record's accessors are the interface's). */
    private record Named(String name, boolean freshGuest) implements SiwCase {
        @Override
        public String proves() {
            return name;
        }

        @Override
        public GuestConfig config() {
            return GuestConfig.defaults();
        }

        @Override
        public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) {
            throw new UnsupportedOperationException();
        }
    }

    private static SiwCase c(String name, boolean fresh) {
        return new Named(name, fresh);
    }

    private static List<String> names(List<SiwCase> cases) {
        return cases.stream().map(SiwCase::name).toList();
    }

    @Test
    void oneLaneKeepsTheCallersOrder() {
        List<SiwCase> cases = List.of(c("a", false), c("b", true), c("c", false), c("d", true));
        assertEquals(List.of("a", "b", "c", "d"), names(MatrixLanes.order(cases, 1)));
    }

    @Test
    void severalLanesTakeTheFreshGuestCasesFirstInTheirOrder() {
        List<SiwCase> cases = List.of(c("a", false), c("b", true), c("c", false), c("d", true));
        assertEquals(List.of("b", "d", "a", "c"), names(MatrixLanes.order(cases, 2)));
    }
}
