package io.dilithiumgpu.bench;

import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.route.Router;
import io.dilithiumgpu.tls.MlDsaCertificates;
import io.dilithiumgpu.tls.MlDsaTls;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import java.util.logging.Logger;

/**
 * One column of {@code tls}, in this process: a TLS 1.3 server on a loopback port and concurrent
 * clients, each connecting, completing a full handshake with a fresh session (the client
 * invalidates each session, so nothing resumes), exchanging one byte each way and closing, in a
 * loop. The server presents an ML-DSA leaf certificate issued by an ML-DSA CA the clients trust.
 *
 * <p>{@link Column#BC}: BouncyCastle alone (its JSSE, provider, ML-DSA, key and PKIX trust
 * managers; keys and certificates made by it). {@link Column#CPU} and {@link Column#CUDA}: the
 * contexts of {@link MlDsaTls}, with this provider's ML-DSA on the batcher's backend, which the
 * process chose when it opened ({@code dilithiumgpu.backend}).
 *
 * <p>Clients close with a reset (linger 0), so that neither side keeps its connections in
 * TIME_WAIT and a long run does not exhaust the loopback's ports.
 */
final class TlsLoad implements AutoCloseable {
    private static final Duration VALIDITY = Duration.ofDays(1);
    /** How long to wait for clients still in a handshake when a level ends. */
    private static final long DRAIN_SECONDS = 120;
    private static final int BACKLOG = 4096;
    /** BouncyCastle's JSSE logs every connection (and the JDK's algorithm settings it ignores); held so that the level sticks. */
    private static final Logger JSSE_LOG = Logger.getLogger("org.bouncycastle.jsse");

    enum Column {
        BC("bc"), CPU("cpu"), CUDA("cuda");

        final String label;

        Column(String label) {
            this.label = label;
        }

        static Column of(String label) {
            for (Column c : values()) {
                if (c.label.equalsIgnoreCase(label)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("no column " + label + " (bc, cpu or cuda)");
        }

        boolean usesProvider() {
            return this != BC;
        }
    }

    /**
     * One level's measurement over its window: handshakes completed, their latency (connect to
     * echo), the process's CPU, the CPU of this provider's threads, this provider's ML-DSA calls by
     * route (on the caller's thread by its core, through the batcher, on the caller's thread by the
     * JDK's ML-DSA), the batcher's batches, and the process's execution samples by part of the
     * handshake ({@link CpuSplit}).
     */
    record Level(int clients, long handshakes, long windowNanos, long p50Nanos, long p99Nanos,
                 long processCpuNanos, long providerCpuNanos, long directOps, long batchOps, long jdkOps,
                 long batches, CpuSplit.Counts samples) {

        double perSecond() {
            return handshakes * 1e9 / windowNanos;
        }

        long providerOps() {
            return directOps + batchOps + jdkOps;
        }

        /**
         * The process's CPU time in {@code part}: this provider's threads (measured) count as
         * ML-DSA; the other threads' time is split by their samples. -1 where the JVM does not
         * report CPU time or nothing was sampled.
         */
        long cpuNanos(CpuSplit.Part part) {
            long provider = Math.max(0, providerCpuNanos);
            long others = processCpuNanos - provider;
            long sampled = samples.othersTotal();
            if (processCpuNanos < 0 || sampled == 0) {
                return -1;
            }
            long share = Math.round((double) others * samples.others(part) / sampled);
            return part == CpuSplit.Part.ML_DSA ? provider + share : share;
        }
    }

    private final Column column;
    private final SSLSocketFactory clients;
    private final SSLServerSocket listener;
    private final ExecutorService handlers;
    private final Thread acceptor;
    private final AtomicReference<Throwable> serverFailure = new AtomicReference<>();

    private TlsLoad(Column column, SSLContext server, SSLContext client) throws IOException {
        this.column = column;
        this.clients = client.getSocketFactory();
        this.listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, BACKLOG, InetAddress.getLoopbackAddress());
        this.handlers = Callers.newExecutor();
        this.acceptor = new Thread(this::accept, "tls-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A server and its clients for {@code column}, with keys and certificates of {@code set}. */
    static TlsLoad open(Column column, String set) throws GeneralSecurityException, IOException {
        JSSE_LOG.setLevel(java.util.logging.Level.SEVERE);
        Provider maker = column.usesProvider() ? MlDsaTls.provider() : MlDsaTls.bouncyCastle();
        KeyPairGenerator kpg = KeyPairGenerator.getInstance(set, maker);
        KeyPair ca = kpg.generateKeyPair();
        X509Certificate caCert = MlDsaCertificates.certificateAuthority(ca, "CN=tls bench CA", VALIDITY, maker);
        KeyPair server = kpg.generateKeyPair();
        X509Certificate leaf = MlDsaCertificates.leaf(caCert, ca.getPrivate(), server.getPublic(), "CN=localhost",
                List.of("localhost"), MlDsaCertificates.Purpose.SERVER, VALIDITY, maker);
        MlDsaTls.Builder s = MlDsaTls.server(server.getPrivate(), List.of(leaf, caCert));
        MlDsaTls.Builder c = MlDsaTls.client(List.of(caCert));
        if (!column.usesProvider()) {
            s.bouncyCastleOnly();
            c.bouncyCastleOnly();
        }
        return new TlsLoad(column, s.build(), c.build());
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    serverFailure.compareAndSet(null, e);
                }
                return;
            }
            handlers.execute(() -> serve((SSLSocket) s));
        }
    }

    /** Handshake, echo one byte, then wait for the client's close (a reset ends it as well). */
    private void serve(SSLSocket s) {
        boolean echoed = false;
        try (s) {
            s.setTcpNoDelay(true);  // a handshake's flights are small writes: no wait for the peer's delayed ACK
            s.startHandshake();
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            int b = in.read();
            if (b < 0) {
                throw new IOException("the client closed before its byte");
            }
            out.write(b);
            out.flush();
            echoed = true;
            while (in.read() >= 0) {
                // nothing more is sent; this waits for the close
            }
        } catch (IOException e) {
            if (!echoed && !listener.isClosed()) {
                serverFailure.compareAndSet(null, e);
            }
        }
    }

    /** One client connection: connect, full handshake, one byte each way, reset. */
    void handshake() throws IOException {
        try (SSLSocket s = (SSLSocket) clients.createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
            s.setTcpNoDelay(true);
            s.startHandshake();
            OutputStream out = s.getOutputStream();
            out.write(1);
            out.flush();
            if (s.getInputStream().read() != 1) {
                throw new IOException("the server did not echo");
            }
            s.getSession().invalidate();
            s.setSoLinger(true, 0);
        }
    }

    /**
     * Runs {@code clients} clients for {@code nanos}, unmeasured: a slice of the warm-up before the
     * first level.
     *
     * @throws Exception the first failure of a client or the server
     */
    void drive(int clients, long nanos) throws Exception {
        try (Clients running = new Clients(clients, took -> { })) {
            TimeUnit.NANOSECONDS.sleep(nanos);
            running.stop();
            running.await();
        }
    }

    /**
     * Runs {@code clients} clients for {@code warmupNanos}, then measures {@code measureNanos}.
     *
     * @throws Exception the first failure of a client or the server (no measurement then)
     */
    Level run(int clients, long warmupNanos, long measureNanos) throws Exception {
        AtomicBoolean measuring = new AtomicBoolean();
        LongAdder done = new LongAdder();
        Histogram latency = new ConcurrentHistogram(3);
        long[] routesStart = new long[4];
        long[] routesEnd = new long[4];
        CpuSplit split = null;
        try (Clients running = new Clients(clients, took -> {
            if (measuring.get()) {
                latency.recordValue(took);
                done.increment();
            }
        })) {
            TimeUnit.NANOSECONDS.sleep(warmupNanos);
            long cpuStart = processCpu();
            long providerStart = providerThreadCpu();
            if (column.usesProvider()) {
                routesStart = routes();
            }
            split = CpuSplit.start();
            long handshakesStart = done.sum();
            measuring.set(true);
            long start = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(measureNanos);
            measuring.set(false);
            running.stop();
            long end = System.nanoTime();
            long handshakes = done.sum() - handshakesStart;
            long cpuEnd = processCpu();
            long providerEnd = providerThreadCpu();
            if (column.usesProvider()) {
                routesEnd = routes();
            }
            CpuSplit.Counts samples = split.stop();
            running.await();
            return new Level(clients, handshakes, end - start, latency.getValueAtPercentile(50),
                    latency.getValueAtPercentile(99), cpuEnd - cpuStart, providerEnd - providerStart,
                    routesEnd[0] - routesStart[0], routesEnd[1] - routesStart[1], routesEnd[2] - routesStart[2],
                    routesEnd[3] - routesStart[3], samples);
        } finally {
            if (split != null) {
                split.close();
            }
        }
    }

    /**
     * Clients handshaking back to back on virtual threads (or platform threads before JDK 21) until
     * {@link #stop}, each handshake's time handed to {@code took}; closing interrupts those still
     * running.
     */
    private final class Clients implements AutoCloseable {
        private final int count;
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final CountDownLatch finished;
        private final ExecutorService executor = Callers.newExecutor();

        Clients(int count, LongConsumer took) {
            this.count = count;
            this.finished = new CountDownLatch(count);
            for (int i = 0; i < count; i++) {
                executor.execute(() -> {
                    try {
                        while (!stopped.get() && failure.get() == null && serverFailure.get() == null) {
                            long t0 = System.nanoTime();
                            handshake();
                            took.accept(System.nanoTime() - t0);
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        finished.countDown();
                    }
                });
            }
        }

        /** Each client stops after its handshake in progress. */
        void stop() {
            stopped.set(true);
        }

        /** Waits for the clients to stop; throws the first failure of a client or the server. */
        void await() throws Exception {
            if (!finished.await(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("clients still busy " + DRAIN_SECONDS + " s after the run ended");
            }
            Throwable first = failure.get() != null ? failure.get() : serverFailure.get();
            if (first != null) {
                throw new WrongResultException(column.label + " at " + count + " clients: a handshake failed: " + first);
            }
        }

        @Override
        public void close() {
            executor.shutdownNow();
        }
    }

    /** The router's direct, batch and JDK counts and the batcher's batches. */
    static long[] routes() {
        Router r = Router.shared();
        return new long[] {r.getDirectCount(), r.getBatchCount(), r.getJdkCount(),
                Engines.sharedBatcher().metrics().getBatchCount()};
    }

    /** The process's CPU time, or -1 where the JVM does not report it. */
    private static long processCpu() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** CPU time of this provider's live threads (batcher, CPU workers, CUDA streams and copies). */
    static long providerThreadCpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
            return -1;
        }
        long sum = 0;
        for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(CpuSplit.PROVIDER_THREADS)) {
                sum += Math.max(0, mx.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        handlers.shutdownNow();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
