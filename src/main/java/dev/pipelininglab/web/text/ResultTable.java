package dev.pipelininglab.web.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.pipelininglab.run.LoopCeiling;
import dev.pipelininglab.run.Latency;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/**
 * Results as aligned text ({@code redis-benchmark}'s spirit), CSV and Markdown, all from
 * one column list, so a new figure is one line there.
 */
public final class ResultTable {

	/** What every row of a CSV repeats, so a row stands on its own in a spreadsheet. */
	static final List<Column<RunResult>> CONTEXT = List.of(Column.text("operation", (r) -> r.ran().operation().label()),
			new Column<>("count", (r) -> r.ran().count(), Format.WHOLE),
			Column.text("topology", (r) -> r.ran().topology()));

	/** In the order shown; text and Markdown leave out a column empty in every row. */
	static final List<Column<RunResult>> FIGURES = List.of(Column.text("variant", (r) -> r.ran().variant()),
			new Column<>("batch", (r) -> r.ran().batchSize(), Format.WHOLE),
			new Column<>("round trips", (r) -> r.ran().batches(), Format.WHOLE),
			new Column<>("elapsed ms", (r) -> r.timing().elapsedMillis(), Format.MILLIS),
			new Column<>("min ms", (r) -> extreme(r.timing().repeatMillis(), false), Format.MILLIS),
			new Column<>("max ms", (r) -> extreme(r.timing().repeatMillis(), true), Format.MILLIS),
			new Column<>("ops/s", (r) -> r.timing().opsPerSecond(), Format.WHOLE),
			// The spread of the passes, when repeated: a figure is a median.
			Column.text("ops/s min-max",
					(r) -> range(r.timing().opsPerSecondMin(), r.timing().opsPerSecondMax(), Format.WHOLE)),
			new Column<>("speedup", RunResult::speedup, Format.RATIO),
			Column.text("speedup min-max", (r) -> range(r.speedupMin(), r.speedupMax(), Format.RATIO)),
			// What held the pass back, in a word; the sentence goes under the table.
			Column.text("limited", (r) -> (r.limitedBy() != null) ? r.limitedBy().what().label() : null),
			new Column<>("rtt ms", (r) -> r.timing().measuredRttMillis(), Format.MILLIS),
			new Column<>("added rtt ms", (r) -> r.timing().addedRttMillis(), Format.MILLIS),
			new Column<>("foreign commands", (r) -> r.serverSide().foreignCommands(), Format.WHOLE),
			new Column<>("evicted keys", ResultTable::evictedKeys, Format.WHOLE),
			// Redis before and after the run, as the page shows beside the table.
			new Column<>("redis keys before",
					(r) -> server(r, (s) -> (s.keyCount() != null) ? s.keyCount().before() : null), Format.WHOLE),
			new Column<>("redis keys after",
					(r) -> server(r, (s) -> (s.keyCount() != null) ? s.keyCount().after() : null), Format.WHOLE),
			new Column<>("redis MB before",
					(r) -> server(r,
							(s) -> (s.usedMemoryBytes() != null) ? s.usedMemoryBytes().before() / 1048576.0 : null),
					Format.FIGURE),
			new Column<>("redis MB after",
					(r) -> server(r,
							(s) -> (s.usedMemoryBytes() != null) ? s.usedMemoryBytes().after() / 1048576.0 : null),
					Format.FIGURE),
			new Column<>("server reads/item", (r) -> server(r, (s) -> perItem(r, s, s.reads())), Format.FIGURE),
			new Column<>("server cpu µs/item",
					(r) -> server(r,
							(s) -> perItem(r, s,
									(s.cpuMicrosPerCommand() != null) ? s.cpuMicrosPerCommand() * s.commands() : null)),
					Format.FIGURE),
			Column.text("latency per", (r) -> latency(r, (latency) -> latency.per().label())),
			new Column<>("p50 ms", (r) -> latency(r, Latency::p50), Format.FIGURE),
			new Column<>("p90 ms", (r) -> latency(r, Latency::p90), Format.FIGURE),
			new Column<>("p99 ms", (r) -> latency(r, Latency::p99), Format.FIGURE),
			new Column<>("p99.9 ms", (r) -> latency(r, Latency::p999), Format.FIGURE),
			new Column<>("latency max ms", (r) -> latency(r, Latency::max), Format.FIGURE),
			new Column<>("MB/s", (r) -> (r.load().payload() != null) ? r.load().payload().bytesPerSecond() / 1e6 : null,
					Format.FIGURE),
			Column.text("checked", ResultTable::checked));

	private ResultTable() {
	}

	private static @Nullable Object server(RunResult r, Function<ServerStats, @Nullable Object> figure) {
		ServerStats server = r.serverSide().server();
		return (server != null) ? figure.apply(server) : null;
	}

	private static @Nullable Object latency(RunResult r, Function<Latency, @Nullable Object> figure) {
		return (r.load().latency() != null) ? figure.apply(r.load().latency()) : null;
	}

	static <T> String text(String title, List<Column<T>> columns, List<T> rows, @Nullable String summary) {
		List<List<String>> cells = new ArrayList<>();
		cells.add(columns.stream().map(Column::name).toList());
		rows.forEach((row) -> cells.add(columns.stream().map((column) -> column.shown(row)).toList()));
		int[] widths = new int[columns.size()];
		cells.forEach((line) -> {
			for (int i = 0; i < widths.length; i++) {
				widths[i] = Math.max(widths[i], line.get(i).length());
			}
		});
		StringBuilder out = new StringBuilder(title).append("\n\n");
		for (List<String> line : cells) {
			List<String> padded = new ArrayList<>();
			for (int i = 0; i < widths.length; i++) {
				String align = (columns.get(i).format() == Format.TEXT) ? "-" : "";
				padded.add(String.format("%" + align + widths[i] + "s", line.get(i)));
			}
			out.append(String.join("  ", padded).stripTrailing()).append('\n');
		}
		if (summary != null) {
			out.append('\n').append(summary).append('\n');
		}
		return out.toString();
	}

	static String resultsCsv(List<Column<RunResult>> figures, List<RunResult> rows) {
		List<Column<RunResult>> columns = new ArrayList<>(CONTEXT);
		columns.addAll(figures);
		// A spreadsheet keeps each note beside its row, not under the table.
		columns.add(Column.text("note", (r) -> r.notes().note()));
		columns.add(Column.text("limited by", (r) -> (r.limitedBy() != null) ? r.limitedBy().sentence() : null));
		return csv(columns, rows);
	}

	static <T> String csv(List<Column<T>> columns, List<T> rows) {
		StringBuilder out = new StringBuilder(csvLine(columns, Column::name));
		rows.forEach((row) -> out.append(csvLine(columns, (column) -> column.raw(row))));
		return out.toString();
	}

	private static <T> String csvLine(List<Column<T>> columns, Function<Column<T>, String> cell) {
		return columns.stream().map(cell.andThen(ResultTable::csvCell)).collect(Collectors.joining(",", "", "\r\n"));
	}

	/** The summary, and warnings of results another client or an eviction disturbed. */
	static @Nullable String under(List<RunResult> rows) {
		return lines(summary(rows), warnings(rows));
	}

	static @Nullable String warnings(List<RunResult> rows) {
		return lines(perRow(rows, "warning: ",
				(row) -> (row.serverSide().foreignCommands() != null) ? "the servers processed "
						+ Format.WHOLE.shown(row.serverSide().foreignCommands())
						+ " commands beyond the run's own during a timed pass: another client was busy on the same"
						+ " Redis, so these figures measure it too" : null),
				perRow(rows, "warning: ",
						(row) -> (evictedKeys(row) != null) ? "Redis evicted " + Format.WHOLE.shown(evictedKeys(row))
								+ " keys during this run to stay under maxmemory: keys that are not the lab's may be"
								+ " among them" : null));
	}

	/**
	 * A line per row with a text, after the label and variant (and batch size where rows
	 * share a variant, as a sweep's); null for none.
	 */
	static @Nullable String perRow(List<RunResult> rows, String label, Function<RunResult, @Nullable String> text) {
		boolean batches = rows.stream().map((row) -> row.ran().variant()).distinct().count() < rows.size();
		return lines(rows.stream()
			.map((row) -> (text.apply(row) != null) ? label + row.ran().variant()
					+ (batches ? " (batch " + Format.WHOLE.shown(row.ran().batchSize()) + ")" : "") + ": "
					+ text.apply(row) : null)
			.toArray(String[]::new));
	}

	private static @Nullable Long evictedKeys(RunResult row) {
		ServerStats server = row.serverSide().server();
		Long evicted = (server != null) ? server.evictedKeys() : null;
		return (evicted != null && evicted > 0) ? evicted : null;
	}

	static @Nullable String lines(@Nullable String... lines) {
		String joined = java.util.Arrays.stream(lines).filter(Objects::nonNull).collect(Collectors.joining("\n"));
		return joined.isEmpty() ? null : joined;
	}

	static <T> String markdown(String title, List<Column<T>> columns, List<T> rows, @Nullable String summary) {
		StringBuilder out = new StringBuilder("### ").append(title).append("\n\n");
		out.append(columns.stream().map(Column::name).collect(Collectors.joining(" | ", "| ", " |\n")));
		out.append(columns.stream()
			.map((column) -> column.format() == Format.TEXT ? "---" : "---:")
			.collect(Collectors.joining(" | ", "| ", " |\n")));
		for (T row : rows) {
			out.append(columns.stream()
				.map((column) -> column.shown(row).replace("|", "\\|"))
				.collect(Collectors.joining(" | ", "| ", " |\n")));
		}
		if (summary != null) {
			out.append('\n').append(summary).append('\n');
		}
		return out.toString();
	}

	static @Nullable String summary(List<RunResult> rows) {
		RunResult fastest = rows.stream()
			.max(Comparator.comparingDouble((row) -> row.timing().opsPerSecond()))
			.orElse(null);
		if (fastest == null) {
			return null;
		}
		String line = "summary: " + fastest.ran().operation().label().toUpperCase(Locale.ROOT) + " "
				+ fastest.ran().variant() + ": " + Format.WHOLE.shown(fastest.commandsRan()) + " commands in "
				+ Format.MILLIS.shown(fastest.timing().elapsedMillis()) + " ms, "
				+ Format.WHOLE.shown(fastest.timing().opsPerSecond()) + " ops/s";
		if (rows.size() > 1 && fastest.speedup() != null) {
			boolean loop = rows.stream().anyMatch((row) -> row.ran().mode() == Mode.LOOP);
			line += ", " + Format.RATIO.shown(fastest.speedup()) + (loop ? " the loop" : " the first variant");
		}
		String ceiling = LoopCeiling.sentence(rows);
		return (ceiling != null) ? line + ". " + ceiling : line;
	}

	static <T> List<Column<T>> shown(List<Column<T>> columns, Collection<T> rows) {
		return columns.stream()
			.filter((column) -> rows.stream().map(column.value()).anyMatch(Objects::nonNull))
			.toList();
	}

	/** "110,000–130,000"; null when one pass ran. */
	private static @Nullable String range(@Nullable Double min, @Nullable Double max, Format format) {
		return (min != null && max != null) ? format.shown(min) + "–" + format.shown(max) : null;
	}

	private static @Nullable Double extreme(@Nullable List<Double> values, boolean max) {
		return (values == null || values.isEmpty()) ? null : max ? Collections.max(values) : Collections.min(values);
	}

	/** Per item sent: its count, times the requests of a fan-out. */
	private static @Nullable Double perItem(RunResult r, ServerStats server, @Nullable Number value) {
		if (value == null || server.commands() == 0) {
			return null;
		}
		// A time limit counts what ran over every request, as the page does.
		return value.doubleValue() / ((r.load().timeLimit() != null) ? Math.max(1, r.commandsRan())
				: r.ran().count() * ((r.load().fanOut() != null) ? r.load().fanOut().requests() : 1));
	}

	private static @Nullable String checked(RunResult r) {
		if (r.counts().verified() != null) {
			return Format.WHOLE.shown(r.counts().verified()) + " verified";
		}
		if (r.counts().hits() != null) {
			return Format.WHOLE.shown(r.counts().hits()) + " hits, " + Format.WHOLE.shown(r.counts().misses())
					+ " misses";
		}
		if (r.counts().popped() != null) {
			return Format.WHOLE.shown(r.counts().popped()) + " popped, " + Format.WHOLE.shown(r.counts().empty())
					+ " empty";
		}
		if (r.counts().pongs() != null) {
			return Format.WHOLE.shown(r.counts().pongs()) + " PONG";
		}
		if (r.counts().written() != null) {
			return Format.WHOLE.shown(r.counts().written()) + " written";
		}
		return null;
	}

	private static String csvCell(String value) {
		if (value.contains(",") || value.contains("\"") || value.contains("\n")) {
			return '"' + value.replace("\"", "\"\"") + '"';
		}
		return value;
	}

	/** A column of every format; its value is null where it does not apply. */
	public record Column<T>(String name, Function<T, @Nullable Object> value, Format format) {

		static <T> Column<T> text(String name, Function<T, @Nullable Object> value) {
			return new Column<>(name, value, Format.TEXT);
		}

		String shown(T row) {
			return this.format.shown(this.value.apply(row));
		}

		String raw(T row) {
			return this.format.raw(this.value.apply(row));
		}

		/** How {@code columns=} names it. */
		public String key() {
			return this.name.toLowerCase(Locale.ROOT).replace('µ', 'u').replace(' ', '-');
		}

	}

}
