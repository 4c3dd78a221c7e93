package dev.pipelininglab.web.text;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.RunResult;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /runs/compare?a=..&b=..}: two runs side by side, each figure of B as a ratio
 * of A's, a row per variant and batch size found in either.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunPair(Side a, Side b, List<Row> rows) {

	static final List<ResultTable.Column<Row>> COLUMNS = List.of(ResultTable.Column.text("variant", Row::variant),
			new ResultTable.Column<>("batch", Row::batchSize, ResultTable.Format.WHOLE),
			new ResultTable.Column<>("A ops/s", Row::aOpsPerSecond, ResultTable.Format.WHOLE),
			new ResultTable.Column<>("B ops/s", Row::bOpsPerSecond, ResultTable.Format.WHOLE),
			new ResultTable.Column<>("B/A ops/s", Row::opsRatio, ResultTable.Format.RATIO),
			new ResultTable.Column<>("A ms", Row::aElapsedMillis, ResultTable.Format.MILLIS),
			new ResultTable.Column<>("B ms", Row::bElapsedMillis, ResultTable.Format.MILLIS),
			new ResultTable.Column<>("B/A ms", Row::elapsedRatio, ResultTable.Format.RATIO));

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
		return new RunPair(side(a), side(b), rows);
	}

	private static boolean sameFigure(RunResult one, RunResult other) {
		return one.ran().variant().equals(other.ran().variant()) && one.ran().batchSize() == other.ran().batchSize();
	}

	private static Row row(@Nullable RunResult a, @Nullable RunResult b) {
		RunResult named = (a != null) ? a : Objects.requireNonNull(b);
		Double opsRatio = (a != null && b != null && a.timing().opsPerSecond() > 0)
				? Double.valueOf(ResultTable.significant(b.timing().opsPerSecond() / a.timing().opsPerSecond(), 3))
				: null;
		Double elapsedRatio = (a != null && b != null && a.timing().elapsedMillis() > 0)
				? Double.valueOf(ResultTable.significant(b.timing().elapsedMillis() / a.timing().elapsedMillis(), 3))
				: null;
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
		return switch (format) {
			case "csv" -> ResultTable.csv(COLUMNS, this.rows);
			case "markdown" -> ResultTable.markdown(title, COLUMNS, this.rows, null);
			default -> ResultTable.text(title, COLUMNS, this.rows, null);
		};
	}

}
