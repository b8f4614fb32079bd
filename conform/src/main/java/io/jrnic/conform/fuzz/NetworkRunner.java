package io.jrnic.conform.fuzz;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.Role;
import io.jrnic.conform.wire.Recording;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

/** Executions against a real target: connects to it (initiator role) or accepts its clients on one listener. */
public final class NetworkRunner implements Runner {
    private final ConformOptions options;
    private final Executor exec;
    private final ServerSocket listener;

    public NetworkRunner(ConformOptions options, Role role, Duration watch) throws IOException {
        this.options = options;
        this.exec = new Executor(role, watch);
        this.listener = role == Role.RESPONDER ? listen(options.servePort()) : null;
    }

    @Override
    public Executor.Result run(Mutator.Plan plan, Recording rec) throws IOException {
        return exec.run(new CaseContext(options, rec, listener), plan);
    }

    @Override
    public Executor.Result replay(FuzzInput in, Recording rec) throws IOException {
        return exec.replay(new CaseContext(options, rec, listener), in);
    }

    @Override
    public void close() throws IOException {
        if (listener != null) {
            listener.close();
        }
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(port));
        return s;
    }
}
