package dev.pipelininglab.web.text;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.RunResult;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /runs/compare?a=..&b=..}: two runs side by side, each figure of B as a ratio
 * of A's, a row per variant and batch size found in either; {@code warnings}: what else
 * differs between them than the change a reader assumes, and a run another one disturbed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunPair(Side a, Side b, @Nullable List<String> warnings, List<Row> rows) {

	static final List<ResultTable.Column<Row>> COLUMNS = List.of(ResultTable.Column.text("variant", Row::variant),
			new ResultTable.Column<>("batch", Row::batchSize, Format.WHOLE),
			new ResultTable.Column<>("A ops/s", Row::aOpsPerSecond, Format.WHOLE),
			new ResultTable.Column<>("B ops/s", Row::bOpsPerSecond, Format.WHOLE),
			new ResultTable.Column<>("B/A ops/s", Row::opsRatio, Format.RATIO),
			new ResultTable.Column<>("A ms", Row::aElapsedMillis, Format.MILLIS),
			new ResultTable.Column<>("B ms", Row::bElapsedMillis, Format.MILLIS),
			new ResultTable.Column<>("B/A ms", Row::elapsedRatio, Format.RATIO));

	record Side(String id, String title, RunRecord.Request request, @Nullable Instant finishedAt) {
	}

	/**
	 * @param withinSpread whether the runs' pass-time ranges overlap: within their noise
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Row(String variant, int batchSize, @Nullable Double aOpsPerSecond, @Nullable Double bOpsPerSecond,
			@Nullable Double opsRatio, @Nullable Double aElapsedMillis, @Nullable Double bElapsedMillis,
			@Nullable Double elapsedRatio, @Nullable Boolean withinSpread) {
	}

	public static RunPair of(RunRecord a, RunRecord b) {
		List<RunResult> left = Objects.requireNonNullElse(a.results(), List.of());
		List<RunResult> right = Objects.requireNonNullElse(b.results(), List.of());
		List<Row> rows = new ArrayList<>();
		for (RunResult one : left) {
			RunResult other = right.stream().filter((candidate) -> sameFigure(one, candidate)).findFirst().orElse(null);
			rows.add(row(one, other));
		}
		for (RunResult other : right) {
			if (left.stream().noneMatch((one) -> sameFigure(one, other))) {
				rows.add(row(null, other));
			}
		}
		return new RunPair(side(a), side(b), warnings(a, b), rows);
	}

	private static @Nullable List<String> warnings(RunRecord a, RunRecord b) {
		RunRecord.Request x = a.request();
		RunRecord.Request y = b.request();
		List<String> differ = Stream
			.of(differ("operation", x.operation().toUpperCase(Locale.ROOT), y.operation().toUpperCase(Locale.ROOT)),
					differ("count", Format.WHOLE.shown(x.count()), Format.WHOLE.shown(y.count())),
					differ("added RTT", rtt(x.rtt()), rtt(y.rtt())),
					differ("value size", bytes(x.valueSize()), bytes(y.valueSize())),
					differ("topology", topology(a), topology(b)),
					differ("variants", variants(x.variants()), variants(y.variants())))
			.filter(Objects::nonNull)
			.toList();
		List<String> warnings = new ArrayList<>();
		if (!differ.isEmpty()) {
			warnings.add("These runs differ in " + String.join("; ", differ)
					+ ": the ratios below compare those differences too, not only the change you made.");
		}
		if (Boolean.TRUE.equals(a.overlapped())) {
			warnings.add("A: " + ResultTextConverter.OVERLAPPED + ".");
		}
		if (Boolean.TRUE.equals(b.overlapped())) {
			warnings.add("B: " + ResultTextConverter.OVERLAPPED + ".");
		}
		return warnings.isEmpty() ? null : warnings;
	}

	private static @Nullable String differ(String what, String a, String b) {
		return a.equals(b) ? null : what + " (A: " + a + ", B: " + b + ")";
	}

	private static String rtt(@Nullable Double millis) {
		return (millis != null) ? Format.MILLIS.shown(millis) + " ms" : "none";
	}

	private static String bytes(@Nullable Integer size) {
		return (size != null) ? Format.WHOLE.shown(size) + " B" : "value-<i>";
	}

	private static String variants(@Nullable List<String> variants) {
		return (variants != null) ? String.join(", ", variants) : "the default set";
	}

	private static String topology(RunRecord record) {
		if (record.environment() != null) {
			return record.environment().topology();
		}
		return (record.results() != null && !record.results().isEmpty()) ? record.results().get(0).ran().topology()
				: "?";
	}

	private static boolean sameFigure(RunResult one, RunResult other) {
		return one.ran().variant().equals(other.ran().variant()) && one.ran().batchSize() == other.ran().batchSize();
	}

	private static Row row(@Nullable RunResult a, @Nullable RunResult b) {
		RunResult named = (a != null) ? a : Objects.requireNonNull(b);
		Double opsRatio = (a != null && b != null && a.timing().opsPerSecond() > 0)
				? Double.valueOf(Format.significant(b.timing().opsPerSecond() / a.timing().opsPerSecond(), 3)) : null;
		Double elapsedRatio = (a != null && b != null && a.timing().elapsedMillis() > 0)
				? Double.valueOf(Format.significant(b.timing().elapsedMillis() / a.timing().elapsedMillis(), 3)) : null;
		return new Row(named.ran().variant(), named.ran().batchSize(), (a != null) ? a.timing().opsPerSecond() : null,
				(b != null) ? b.timing().opsPerSecond() : null, opsRatio,
				(a != null) ? a.timing().elapsedMillis() : null, (b != null) ? b.timing().elapsedMillis() : null,
				elapsedRatio, withinSpread(a, b));
	}

	private static @Nullable Boolean withinSpread(@Nullable RunResult a, @Nullable RunResult b) {
		List<Double> left = (a != null) ? a.timing().repeatMillis() : null;
		List<Double> right = (b != null) ? b.timing().repeatMillis() : null;
		if (left == null || right == null || left.isEmpty() || right.isEmpty()) {
			return null;
		}
		return Collections.min(left) <= Collections.max(right) && Collections.min(right) <= Collections.max(left);
	}

	private static Side side(RunRecord record) {
		return new Side(record.id(), ResultTextConverter.title(record), record.request(), record.finishedAt());
	}

	String render(String format) {
		String title = "A: " + this.a.title() + "\nB: " + this.b.title();
		String warned = (this.warnings != null) ? "warning: " + String.join("\nwarning: ", this.warnings) : null;
		return switch (format) {
			case "csv" -> ResultTable.csv(COLUMNS, this.rows);
			case "markdown" -> ResultTable.markdown(title, COLUMNS, this.rows, warned);
			default -> ResultTable.text(title, COLUMNS, this.rows, (warned != null) ? TableColumns.wrap(warned) : null);
		};
	}

}
