package io.jrnic.nvmf.host;

import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Status;
import java.io.IOException;

/** A command completed with a status other than success; {@link #cqe()} is the response capsule. */
public final class NvmeStatusException extends IOException {
    private final transient Cqe cqe;

    public NvmeStatusException(String what, Cqe cqe) {
        super(what + ": " + Status.describe(cqe.status()));
        this.cqe = cqe;
    }

    public Cqe cqe() {
        return cqe;
    }

    /** The status field without DNR/More/CRD: {@code SCT << 8 | SC}. */
    public int status() {
        return cqe.status() & 0x7FF;
    }
}
