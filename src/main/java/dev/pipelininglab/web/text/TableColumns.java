package dev.pipelininglab.web.text;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.web.ApiParameter;
import org.jspecify.annotations.Nullable;

/** Which {@link ResultTable} columns an answer shows ({@code columns=}), how wide. */
public final class TableColumns {

	/**
	 * A loop's sample is a command, a pipeline's a batch, a fan-out's a request: said in
	 * each cell.
	 */
	static final ResultTable.Column<RunResult> P50_P99 = ResultTable.Column
		.text("p50/p99 ms",
				(r) -> (r.load().latency() != null) ? Format.FIGURE.shown(r.load().latency().p50()) + "/"
						+ Format.FIGURE.shown(r.load().latency().p99()) + " per " + r.load().latency().per().label()
						: null);

	/** text/plain's default: what fits a terminal, as {@code redis-benchmark -q}. */
	public static final List<String> SHORT = List.of("variant", "ops/s", "ops/s-min-max", "speedup", "speedup-min-max",
			"p50/p99-ms", "limited", "checked");

	static final int WIDTH = 100;

	public static final List<ResultTable.Column<RunResult>> NAMED = Stream
		.concat(ResultTable.FIGURES.stream(), Stream.of(P50_P99))
		.toList();

	private TableColumns() {
	}

	static List<ResultTable.Column<RunResult>> columns(@Nullable String asked, String format, List<RunResult> rows) {
		if (asked == null) {
			// A page has room for what a terminal shows, not for every figure.
			if (!format.equals("plain") && !format.equals("html")) {
				return ResultTable.FIGURES;
			}
			boolean sweep = rows.size() > 1 && rows.stream().map((r) -> r.ran().variant()).distinct().count() == 1;
			List<String> keys = new ArrayList<>(SHORT);
			if (sweep) {
				keys.add(1, "batch");
			}
			List<ResultTable.Column<RunResult>> columns = named(keys);
			// limited is said under the table too: dropped where too wide.
			return (format.equals("html") || width(columns, rows) <= WIDTH) ? columns
					: columns.stream().filter((column) -> !column.key().equals("limited")).toList();
		}
		ApiParameter.checkColumns(asked);
		return asked.equals("all") ? ResultTable.FIGURES : named(List.of(asked.split(",", -1)));
	}

	/** The table's widest line: every column at its widest, two spaces apart. */
	private static int width(List<ResultTable.Column<RunResult>> columns, List<RunResult> rows) {
		return ResultTable.text("", ResultTable.shown(columns, rows), rows, null)
			.lines()
			.mapToInt(String::length)
			.max()
			.orElse(0);
	}

	/**
	 * Keys checked against the catalogue's, which are these columns' (CatalogueTests).
	 */
	private static List<ResultTable.Column<RunResult>> named(List<String> keys) {
		return keys.stream()
			.map((key) -> NAMED.stream().filter((column) -> column.key().equals(key)).findFirst().orElseThrow())
			.toList();
	}

	/** Long lines broken between words, their rest indented by two spaces. */
	static String wrap(String text) {
		StringBuilder out = new StringBuilder();
		for (String line : text.split("\n", -1)) {
			StringBuilder current = new StringBuilder();
			for (String word : line.split(" ")) {
				if (current.length() > 0 && current.length() + 1 + word.length() > WIDTH) {
					out.append(current).append('\n');
					current = new StringBuilder("  ");
				}
				else if (current.length() > 0 && !current.toString().equals("  ")) {
					current.append(' ');
				}
				current.append(word);
			}
			out.append(current).append('\n');
		}
		return out.substring(0, out.length() - 1);
	}

}
