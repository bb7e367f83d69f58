package io.dilithiumgpu.tls;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import java.nio.ByteBuffer;

/**
 * A client and a server {@link SSLEngine} handshaking through memory on the calling thread: each
 * round, both wrap what they have to send and unwrap what the other sent, until both are done or
 * one fails (its alert is still delivered to the other).
 */
final class EnginePair {
    private static final int MAX_ROUNDS = 100;
    private static final int BUFFER = 1 << 20;

    /** What each side ended with: null where it completed its handshake. */
    record Outcome(SSLEngine client, SSLEngine server, SSLException clientFailure, SSLException serverFailure) {
        boolean succeeded() {
            return clientFailure == null && serverFailure == null;
        }
    }

    private EnginePair() {}

    static Outcome handshake(SSLContext clientContext, SSLContext serverContext) throws SSLException {
        SSLEngine client = clientContext.createSSLEngine("localhost", 443);
        client.setUseClientMode(true);
        SSLEngine server = serverContext.createSSLEngine();
        server.setUseClientMode(false);
        return handshake(client, server);
    }

    static Outcome handshake(SSLEngine client, SSLEngine server) throws SSLException {
        Side c = new Side(client);
        Side s = new Side(server);
        client.beginHandshake();
        server.beginHandshake();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean moved = c.send(s.inbox) | s.send(c.inbox);
            moved |= c.receive() | s.receive();
            if (c.done() && s.done() && c.inbox.position() == 0 && s.inbox.position() == 0) {
                return new Outcome(client, server, c.failure, s.failure);
            }
            if (!moved) {
                break;
            }
        }
        if (c.failure != null || s.failure != null) {
            return new Outcome(client, server, c.failure, s.failure);
        }
        throw new AssertionError("the handshake stalled: client " + client.getHandshakeStatus()
                + ", server " + server.getHandshakeStatus());
    }

    private static final class Side {
        final SSLEngine engine;
        final ByteBuffer inbox = ByteBuffer.allocate(BUFFER);
        final ByteBuffer app = ByteBuffer.allocate(BUFFER);
        SSLException failure;

        Side(SSLEngine engine) {
            this.engine = engine;
        }

        boolean done() {
            return failure != null || engine.isOutboundDone()
                    || engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
        }

        /** Wraps everything this side has to send (after a failure: its alert) into the peer's inbox. */
        boolean send(ByteBuffer peerInbox) {
            boolean moved = false;
            // A failed or closed engine may still hold its alert: wrap until nothing comes out.
            for (int i = 0; i < MAX_ROUNDS; i++) {
                SSLEngineResult r;
                try {
                    r = engine.wrap(ByteBuffer.allocate(0), peerInbox);
                } catch (SSLException e) {
                    fail(e);
                    continue;
                }
                runTasks();
                if (r.bytesProduced() == 0) {
                    break;
                }
                moved = true;
            }
            return moved;
        }

        boolean receive() {
            boolean moved = false;
            inbox.flip();
            try {
                while (inbox.hasRemaining() && !engine.isInboundDone()) {
                    SSLEngineResult r;
                    try {
                        r = engine.unwrap(inbox, app);
                    } catch (SSLException e) {
                        fail(e);
                        break;
                    }
                    runTasks();
                    if (r.bytesConsumed() == 0) {
                        break;
                    }
                    moved = true;
                }
            } finally {
                inbox.compact();
            }
            return moved;
        }

        private void fail(SSLException e) {
            if (failure == null) {
                failure = e;
            }
        }

        private void runTasks() {
            for (Runnable t; (t = engine.getDelegatedTask()) != null; ) {
                t.run();
            }
        }
    }
}
