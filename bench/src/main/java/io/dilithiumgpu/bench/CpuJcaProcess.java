package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code jca} subcommand's {@link Contender#DILITHIUM_GPU_CPU} cells: this provider in a second
 * JVM whose batcher runs on the CPU backend. The provider keeps one batcher per process, so its CPU
 * backend cannot be had beside a GPU one in the same JVM. The second JVM gets this JVM's options and
 * class path, with {@code dilithiumgpu.backend=cpu}, and runs {@code jca --serve}: it warms up, then
 * measures one cell per request, while this JVM waits, so that its cells alternate with the others'
 * as {@link JcaSchedule} orders them and each has the whole host, as a user without a GPU would.
 *
 * <p>Both ends of the exchange are here, one line per message over the second JVM's standard input
 * and output (its standard error is this process's):
 * <pre>
 * second JVM: NOTE text                           (zero or more, then)
 *             READY ML-DSA-44,ML-DSA-65           (warmed up; the sets it measures)
 * this JVM:   CLOSED ML-DSA-44 sign reuse 16      second JVM: OPS 12345.6 | REFUSED why
 *             OPEN ML-DSA-44 sign reuse 6000.0    second JVM: LATENCY rate calls p50 p99 p99.9 max windows | REFUSED why
 *             (end of input)                      second JVM: PROBLEM text (zero or more), exits
 * </pre>
 * Any other line of its output is passed on to standard error.
 */
final class CpuJcaProcess implements JcaCells {
    static final String NOTE = "NOTE ";
    static final String READY = "READY ";
    static final String CLOSED = "CLOSED ";
    static final String OPEN = "OPEN ";
    static final String OPS = "OPS ";
    static final String LATENCY = "LATENCY ";
    static final String REFUSED = "REFUSED ";
    static final String PROBLEM = "PROBLEM ";

    private final Process process;
    private final BufferedReader replies;
    private final PrintWriter requests;
    private final Set<ParameterSet> sets;

    private CpuJcaProcess(Process process, BufferedReader replies, PrintWriter requests, Set<ParameterSet> sets) {
        this.process = process;
        this.replies = replies;
        this.requests = requests;
        this.sets = sets;
    }

    /**
     * Starts {@code jca --serve} with {@code args} (the run's selection and times) in a second JVM on
     * the CPU backend, and waits until it has warmed up; its notes go to {@code notes}.
     *
     * @throws IOException when it ends before it is ready
     */
    static CpuJcaProcess start(List<String> args, List<String> notes) throws IOException, InterruptedException {
        List<String> jcaArgs = new ArrayList<>(List.of("jca", "--serve"));
        jcaArgs.addAll(args);
        Process p = new ProcessBuilder(ChildJvm.command("cpu", jcaArgs))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        CpuJcaProcess child = new CpuJcaProcess(p,
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)),
                new PrintWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)),
                EnumSet.noneOf(ParameterSet.class));
        try {
            String ready;
            while ((ready = child.reply()).startsWith(NOTE)) {
                notes.add(ready.substring(NOTE.length()));
            }
            child.expect(ready, READY);
            for (String name : ready.substring(READY.length()).split(",")) {
                if (!name.isEmpty()) {
                    child.sets.add(ParameterSet.forName(name));
                }
            }
            return child;
        } catch (IOException | RuntimeException e) {
            child.finish().forEach(System.err::println);
            throw e;
        }
    }

    @Override
    public boolean has(ParameterSet set) {
        return sets.contains(set);
    }

    @Override
    public double closedLoop(ParameterSet set, Operation op, JcaLoad.Style style, int callers)
            throws IOException, InterruptedException, WrongResultException {
        String reply = ask(CLOSED + cell(set, op, style) + " " + callers);
        expect(reply, OPS);
        return Double.parseDouble(reply.substring(OPS.length()));
    }

    @Override
    public Latency openLoop(ParameterSet set, Operation op, JcaLoad.Style style, double rate)
            throws IOException, InterruptedException, WrongResultException {
        String reply = ask(OPEN + cell(set, op, style) + " " + rate);
        expect(reply, LATENCY);
        return decode(reply.substring(LATENCY.length()));
    }

    /** Closes the second JVM's input, gathers its problems and waits for it to exit. */
    @Override
    public List<String> finish() throws IOException, InterruptedException {
        requests.close();
        List<String> problems = new ArrayList<>();
        try (replies) {
            for (String line; (line = replies.readLine()) != null; ) {
                if (line.startsWith(PROBLEM)) {
                    problems.add(line.substring(PROBLEM.length()));
                } else {
                    passOn(line);
                }
            }
        }
        int exit = process.waitFor();
        if (exit != Cli.OK && problems.isEmpty()) {
            problems.add("the second JVM (CPU backend) exited with " + exit);
        }
        return problems;
    }

    /** Sends a request and reads its reply; a refusal becomes the exception. */
    private String ask(String request) throws IOException, InterruptedException, WrongResultException {
        requests.println(request);
        requests.flush();
        if (requests.checkError()) {
            throw new IOException("the second JVM (CPU backend) takes no more requests: exit " + process.waitFor());
        }
        String reply = reply();
        if (reply.startsWith(REFUSED)) {
            throw new WrongResultException(reply.substring(REFUSED.length()));
        }
        return reply;
    }

    /** The next line of the exchange, other lines passed on to standard error. */
    private String reply() throws IOException, InterruptedException {
        for (String line; (line = replies.readLine()) != null; ) {
            for (String tag : List.of(NOTE, READY, OPS, LATENCY, REFUSED)) {
                if (line.startsWith(tag)) {
                    return line;
                }
            }
            passOn(line);
        }
        throw new IOException("the second JVM (CPU backend) ended before its reply: exit " + process.waitFor());
    }

    private static void expect(String reply, String tag) throws IOException {
        if (!reply.startsWith(tag)) {
            throw new IOException("the second JVM (CPU backend) replied " + reply + " where " + tag.trim()
                    + " was due");
        }
    }

    private static void passOn(String line) {
        System.err.println("[jca " + Contender.DILITHIUM_GPU_CPU.label + "] " + line);
    }

    /** {@code ML-DSA-44 sign reuse}: a cell's set, operation and style as requests name them. */
    static String cell(ParameterSet set, Operation op, JcaLoad.Style style) {
        return set.algorithmName() + " " + ThroughputCli.opName(op) + " " + style.label;
    }

    /** {@code rate calls p50 p99 p99.9 max window;window;...} ({@link OpenLoopTimeline.Window#encode}; - for none). */
    static String encode(Latency l) {
        String windows = l.timeline().stream().map(OpenLoopTimeline.Window::encode).collect(Collectors.joining(";"));
        return l.rate() + " " + l.calls() + " " + l.p50() + " " + l.p99() + " " + l.p999() + " " + l.max() + " "
                + (windows.isEmpty() ? "-" : windows);
    }

    static Latency decode(String text) {
        String[] f = text.trim().split(" ");
        if (f.length != 7) {
            throw new IllegalArgumentException("not a latency: " + text);
        }
        List<OpenLoopTimeline.Window> windows = new ArrayList<>();
        if (!f[6].equals("-")) {
            for (String w : f[6].split(";")) {
                windows.add(OpenLoopTimeline.Window.decode(w));
            }
        }
        return new Latency(Double.parseDouble(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]),
                Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), List.copyOf(windows));
    }

    /**
     * The second JVM's part: announces {@code cells} ready for those of {@code sets} it has, then
     * measures each cell requested on {@code in}, replying on {@code out}, until {@code in} ends;
     * then finishes the cells.
     *
     * @return {@link Cli#OK}, or {@link Cli#FAILED} when finishing found a problem
     */
    static int serve(JcaCells cells, List<ParameterSet> sets, List<String> notes, BufferedReader in, PrintStream out)
            throws Exception {
        try {
            for (String note : notes) {
                out.println(NOTE + oneLine(note));
            }
            out.println(READY + String.join(",", sets.stream().filter(cells::has).map(ParameterSet::algorithmName)
                    .toList()));
            out.flush();
            for (String line; (line = in.readLine()) != null; ) {
                out.println(answer(cells, line));
                out.flush();
            }
        } catch (Exception | Error e) {
            cells.finish().forEach(System.err::println);
            throw e;
        }
        List<String> problems = cells.finish();
        for (String problem : problems) {
            out.println(PROBLEM + oneLine(problem));
        }
        out.flush();
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    /** The reply to one request. */
    static String answer(JcaCells cells, String request) throws Exception {
        boolean closed = request.startsWith(CLOSED);
        if (!closed && !request.startsWith(OPEN)) {
            throw new IllegalArgumentException("not a request: " + request);
        }
        String[] f = request.substring((closed ? CLOSED : OPEN).length()).trim().split(" ");
        if (f.length != 4) {
            throw new IllegalArgumentException("not a request: " + request);
        }
        ParameterSet set = ParameterSet.forName(f[0]);
        Operation op = Operation.valueOf(f[1].toUpperCase(Locale.ROOT));
        JcaLoad.Style style = JcaLoad.Style.of(f[2]);
        try {
            return closed ? OPS + cells.closedLoop(set, op, style, Integer.parseInt(f[3]))
                    : LATENCY + encode(cells.openLoop(set, op, style, Double.parseDouble(f[3])));
        } catch (WrongResultException e) {
            return REFUSED + oneLine(e.getMessage());
        }
    }

    private static String oneLine(String text) {
        return String.valueOf(text).replace('\r', ' ').replace('\n', ' ');
    }
}
