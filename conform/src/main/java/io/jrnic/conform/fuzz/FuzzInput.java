package io.jrnic.conform.fuzz;

import io.jrnic.conform.Role;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.mpa.MpaSetupFrame;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One fuzz execution as it was sent, and its reproducer file: the set-up frame jrnic sent (field by field,
 * so that a minimiser can put fields back one at a time), whether one valid ping ran first, then each
 * message (a ULPDU, framed with a good or bad CRC, optionally cut into TCP segments of {@code split}
 * octets). The text form, one item per line:
 * <pre>
 * role INITIATOR|RESPONDER
 * setup KEYHEX FLAGS REVISION PD_LENGTH PDHEX
 * ping true|false
 * msg ULPDUHEX crc=good|bad split=N
 * </pre>
 */
public record FuzzInput(Role role, SetupFrame setup, boolean ping, List<Message> messages) {
    /** One message after set-up. */
    public record Message(byte[] ulpdu, boolean badCrc, int split) {
    }

    private static final HexFormat HEX = HexFormat.of();

    /** The text form. */
    public String text() {
        return "# jrnic fuzz reproducer: jrnic fuzz --replay FILE TARGET (or --serve PORT)\n" + body();
    }

    /** The text form without its comment line (one step of a {@link Reproducer}). */
    public String body() {
        StringBuilder b = new StringBuilder();
        b.append("role ").append(role).append('\n');
        b.append("setup ").append(HEX.formatHex(setup.key)).append(' ').append(setup.flags).append(' ')
                .append(setup.revision).append(' ').append(setup.pdLength).append(' ')
                .append(setup.privateData.length == 0 ? "-" : HEX.formatHex(setup.privateData)).append('\n');
        b.append("ping ").append(ping).append('\n');
        for (Message m : messages) {
            b.append("msg ").append(m.ulpdu().length == 0 ? "-" : HEX.formatHex(m.ulpdu())).append(" crc=")
                    .append(m.badCrc() ? "bad" : "good").append(" split=").append(m.split()).append('\n');
        }
        return b.toString();
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, text());
    }

    public static FuzzInput read(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    public static FuzzInput parse(String text) {
        Role role = null;
        SetupFrame setup = null;
        boolean ping = false;
        List<Message> msgs = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+");
            switch (f[0]) {
                case "role" -> role = Role.valueOf(f[1]);
                case "setup" -> {
                    MpaSetupFrame.Kind kind = MpaSetupFrame.Kind.REQUEST;
                    setup = SetupFrame.v1(kind, false, 0);
                    setup.key = HEX.parseHex(f[1]);
                    setup.flags = Integer.parseInt(f[2]);
                    setup.revision = Integer.parseInt(f[3]);
                    setup.privateData = f[5].equals("-") ? new byte[0] : HEX.parseHex(f[5]);
                    setup.pdLength = Integer.parseInt(f[4]);
                }
                case "ping" -> ping = Boolean.parseBoolean(f[1]);
                case "msg" -> msgs.add(new Message(f[1].equals("-") ? new byte[0] : HEX.parseHex(f[1]),
                        f[2].equals("crc=bad"), Integer.parseInt(f[3].substring("split=".length()))));
                default -> throw new IllegalArgumentException("unknown reproducer line: " + l);
            }
        }
        if (role == null || setup == null) {
            throw new IllegalArgumentException("a reproducer needs a role and a setup line");
        }
        return new FuzzInput(role, setup, ping, List.copyOf(msgs));
    }

    /** A copy of the set-up frame (the record's is mutable). */
    public SetupFrame setupCopy() {
        return copy(setup);
    }

    static SetupFrame copy(SetupFrame f) {
        SetupFrame c = SetupFrame.v1(MpaSetupFrame.Kind.REQUEST, false, 0);
        c.key = f.key.clone();
        c.flags = f.flags;
        c.revision = f.revision;
        c.privateData = f.privateData.clone();
        c.pdLength = f.pdLength;
        return c;
    }

    /** Same input with other messages. */
    public FuzzInput withMessages(List<Message> m, boolean withPing) {
        return new FuzzInput(role, copy(setup), withPing, List.copyOf(m));
    }

    /** Same input with another set-up frame. */
    public FuzzInput withSetup(SetupFrame f) {
        return new FuzzInput(role, copy(f), ping, messages);
    }
}
