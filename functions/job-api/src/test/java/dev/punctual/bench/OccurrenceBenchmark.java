package dev.punctual.bench;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.springframework.scheduling.support.CronExpression;

/**
 * Occurrences per second: each invocation computes {@value #PER_SCHEDULE} consecutive occurrences of
 * every schedule of a fixed mix, one next() at a time, with Punctual, Spring's CronExpression and
 * cron-utils. The mix avoids local times that DST skips or repeats, where the references disagree
 * with EventBridge, so all three compute the same instants; {@link #setUp()} checks that they do.
 *
 * <p>Not a test. Run it as docs/benchmarks.md says.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OccurrenceBenchmark {
    static final int PER_SCHEDULE = 200;
    static final String[][] MIX = {
        {"*/15 * * * *", "UTC"},
        {"0 9 * * 1-5", "Europe/Berlin"},
        {"30 14 * * *", "America/New_York"},
        {"0 0 1 * *", "Australia/Sydney"},
        {"5,35 */2 * * 0,6", "Asia/Kolkata"},
        {"0 12 * JAN,JUL *", "Australia/Lord_Howe"},
        {"45 23 * * 5", "America/Santiago"},
    };
    static final int OCCURRENCES = PER_SCHEDULE * 7;
    static final Instant START = Instant.parse("2027-01-01T00:00:00Z");

    private final List<OccurrenceCalculator> punctual = new ArrayList<>();
    private final List<CronExpression> spring = new ArrayList<>();
    private final List<ExecutionTime> cronUtils = new ArrayList<>();
    private final List<ZoneId> zones = new ArrayList<>();

    @Setup
    public void setUp() {
        CronParser unix = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
        for (String[] entry : MIX) {
            punctual.add(OccurrenceCalculator.of(Schedule.parse(entry[0], entry[1])));
            spring.add(CronExpression.parse("0 " + entry[0]));
            cronUtils.add(ExecutionTime.forCron(unix.parse(entry[0])));
            zones.add(ZoneId.of(entry[1]));
        }
        if (punctual() != spring() || spring() != cronUtils()) {
            throw new IllegalStateException("the three engines disagree on the mix; the comparison would be unfair");
        }
    }

    @Benchmark
    @OperationsPerInvocation(OCCURRENCES)
    public long punctual() {
        long sum = 0;
        for (OccurrenceCalculator calculator : punctual) {
            Instant at = START;
            for (int i = 0; i < PER_SCHEDULE; i++) {
                at = calculator.next(at).orElseThrow();
                sum += at.getEpochSecond();
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(OCCURRENCES)
    public long spring() {
        long sum = 0;
        for (int s = 0; s < spring.size(); s++) {
            CronExpression cron = spring.get(s);
            sum += walk(START.atZone(zones.get(s)), cron::next);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(OCCURRENCES)
    public long cronUtils() {
        long sum = 0;
        for (int s = 0; s < cronUtils.size(); s++) {
            ExecutionTime cron = cronUtils.get(s);
            sum += walk(START.atZone(zones.get(s)), at -> cron.nextExecution(at).orElseThrow());
        }
        return sum;
    }

    private static long walk(ZonedDateTime start, UnaryOperator<ZonedDateTime> next) {
        long sum = 0;
        ZonedDateTime at = start;
        for (int i = 0; i < PER_SCHEDULE; i++) {
            at = next.apply(at);
            sum += at.toEpochSecond();
        }
        return sum;
    }
}
