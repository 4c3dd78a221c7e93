package dev.pipelininglab.web.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Recommendation;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.Sweep;
import dev.pipelininglab.web.ApiParameter;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Results, comparisons, sweeps and run records as {@link ResultTable}s for
 * {@code text/plain}, CSV and Markdown; after Jackson, so JSON stays the default.
 */
public final class ResultTextConverter extends AbstractHttpMessageConverter<Object> {

	public static final MediaType CSV = new MediaType("text", "csv", StandardCharsets.UTF_8);

	public static final MediaType MARKDOWN = new MediaType("text", "markdown", StandardCharsets.UTF_8);

	public static final MediaType TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);

	ResultTextConverter() {
		super(StandardCharsets.UTF_8, TEXT, CSV, MARKDOWN);
	}

	@Override
	protected boolean supports(Class<?> clazz) {
		return Stream.of(RunResult.class, Comparison.class, Sweep.class, RunRecord.class, RunPair.class)
			.anyMatch((type) -> type.isAssignableFrom(clazz));
	}

	@Override
	protected Object readInternal(Class<?> clazz, HttpInputMessage input) {
		throw new HttpMessageNotReadableException("Tables are written, not read", input);
	}

	@Override
	protected void writeInternal(Object value, HttpOutputMessage output) throws IOException {
		MediaType type = output.getHeaders().getContentType();
		String format = (type != null) ? type.getSubtype() : "plain";
		output.getBody().write(render(value, format, asked()).getBytes(StandardCharsets.UTF_8));
	}

	/** A converter is handed the answer, not the request with its {@code columns=}. */
	private static @Nullable String asked() {
		return (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)
				? attributes.getRequest().getParameter(ApiParameter.COLUMNS.parameterName()) : null;
	}

	/**
	 * @param format {@code plain}, {@code csv} or {@code markdown}
	 */
	public static String render(Object value, String format, @Nullable String columns) {
		if (value instanceof RunPair pair) {
			return pair.render(format);
		}
		List<RunResult> rows;
		String title;
		String extra = "";
		if (value instanceof RunResult result) {
			rows = List.of(result);
			title = result.ran().operation().label().toUpperCase(Locale.ROOT) + " " + result.ran().variant() + ", "
					+ ResultTable.Format.WHOLE.shown(result.ran().count()) + " commands on " + result.ran().topology();
		}
		else if (value instanceof Comparison comparison) {
			rows = comparison.results();
			title = "compare " + label(comparison.operation().label(), comparison.count(), comparison.topology());
			extra = skipped(comparison.skipped());
		}
		else if (value instanceof Sweep sweep) {
			rows = sweep.results();
			title = "sweep " + label(sweep.operation().label(), sweep.count(), sweep.topology());
			extra = recommended(sweep.recommendation());
		}
		else {
			RunRecord record = (RunRecord) value;
			rows = (record.results() != null) ? record.results() : List.of();
			title = title(record);
			extra = skipped(record.skipped()) + recommended(record.recommendation());
			if (record.problem() != null) {
				extra += record.problem().title() + ": " + record.problem().detail() + "\n";
			}
			if (Boolean.TRUE.equals(record.overlapped())) {
				extra += "warning: another run of this app was measuring at the same time, so these figures measure"
						+ " each other too\n";
			}
			extra += environment(record.environment());
		}
		title += rows.stream()
			.map((row) -> row.timing().addedRttMillis())
			.filter(Objects::nonNull)
			.findFirst()
			.map((added) -> ", " + ResultTable.Format.MILLIS.shown(added) + " ms added to each round trip")
			.orElse("");
		extra = notes(rows) + extra;
		List<ResultTable.Column<RunResult>> picked = TableColumns.columns(columns, format, rows);
		List<ResultTable.Column<RunResult>> shown = ResultTable.shown(picked, rows);
		String under = ResultTable.under(rows);
		return switch (format) {
			case "csv" -> ResultTable.resultsCsv(picked, rows);
			case "markdown" -> ResultTable.markdown(title, shown, rows, under) + extra;
			// Title and summary wrapped to a terminal's width.
			default -> ResultTable.text(TableColumns.wrap(title), shown, rows,
					(under != null) ? TableColumns.wrap(under) : null)
					+ (extra.isEmpty() ? "" : TableColumns.wrap(extra));
		};
	}

	static String title(RunRecord record) {
		RunRecord.Request request = record.request();
		String what = (request.mode() != null) ? request.operation().toUpperCase(Locale.ROOT) + " " + request.mode()
				: record.kind().label() + " " + request.operation().toUpperCase(Locale.ROOT);
		return what + ", " + ResultTable.Format.WHOLE.shown(request.count()) + " commands · " + record.status()
				+ " · run " + record.id() + ((record.finishedAt() != null) ? " · " + record.finishedAt() : "");
	}

	private static String label(String operation, long count, String topology) {
		return operation.toUpperCase(Locale.ROOT) + ", " + ResultTable.Format.WHOLE.shown(count) + " commands on "
				+ topology;
	}

	/** What the page lists under the table: each result's note, and what held it back. */
	private static String notes(List<RunResult> rows) {
		String lines = ResultTable.lines(ResultTable.perRow(rows, "note: ", (row) -> row.notes().note()), ResultTable
			.perRow(rows, "limited by: ", (row) -> (row.limitedBy() != null) ? row.limitedBy().sentence() : null));
		return (lines != null) ? lines + "\n" : "";
	}

	private static String environment(RunRecord.@Nullable Environment environment) {
		if (environment == null) {
			return "";
		}
		return "measured on: Redis " + Objects.requireNonNullElse(environment.redisVersion(), "?") + " ("
				+ environment.topology() + ") · " + environment.jvm() + " · " + environment.cores()
				+ " cores · default flush policy " + environment.flushPolicy() + ", writes " + environment.writes()
				+ "\n";
	}

	private static String skipped(@Nullable List<Comparison.Skipped> skipped) {
		if (skipped == null || skipped.isEmpty()) {
			return "";
		}
		return skipped.stream()
			.map((skip) -> "skipped " + skip.variant() + ": " + skip.reason() + "\n")
			.collect(Collectors.joining());
	}

	private static String recommended(@Nullable Recommendation recommendation) {
		return (recommendation != null) ? "recommended: " + recommendation.summary() + "\n" : "";
	}

}
