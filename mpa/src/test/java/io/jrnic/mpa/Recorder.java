package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.List;

/** Test listener: records a copy of each ULPDU and each error. */
final class Recorder implements FpduListener {
    record Fpdu(byte[] ulpdu, long offset, CrcCheck crc) {
    }

    record Error(LlpError error, long offset, String detail) {
    }

    final List<Fpdu> fpdus = new ArrayList<>();
    final List<Error> errors = new ArrayList<>();

    @Override
    public void onFpdu(ByteBuf ulpdu, long fpduStreamOffset, CrcCheck crc) {
        fpdus.add(new Fpdu(ByteBufUtil.getBytes(ulpdu), fpduStreamOffset, crc));
    }

    @Override
    public void onError(LlpError error, long streamOffset, String detail) {
        errors.add(new Error(error, streamOffset, detail));
    }
}
