package dev.ruminate.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the CPU time the benchmark's JVM spends per operation ({@code cpu.time.norm}, ns/op):
 * the process CPU time over each iteration (benchmark thread, GC and compiler threads, the harness) divided by the
 * operations done in it. On a machine shared with other work, throughput falls with the CPU share the benchmark
 * gets; CPU time per operation does not (cache and memory-bandwidth contention still weigh on it), so it is the
 * steadier figure when the load is high. Use with {@code -prof dev.ruminate.benchmarks.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long before;

    /** Creates the profiler; JMH instantiates it by name. */
    public CpuTimeProfiler() {
    }

    @Override
    public String getDescription() {
        return "process CPU time per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = os.getProcessCpuTime();
    }

    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
            IterationResult result) {
        long cpu = os.getProcessCpuTime() - before;
        long ops = result.getMetadata().getAllOps();
        if (ops <= 0 || cpu < 0) {
            return List.of();
        }
        return List.of(new ScalarResult("cpu.time.norm", (double) cpu / ops, "ns/op", AggregationPolicy.AVG));
    }
}
