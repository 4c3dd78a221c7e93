package dev.pipelininglab.web.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Recommendation;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.Sweep;
import dev.pipelininglab.web.ApiParameter;
import dev.pipelininglab.web.recipe.RecipeTextConverter;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.util.HtmlUtils;

/**
 * Results, comparisons, sweeps and run records as {@link ResultTable}s for
 * {@code text/plain}, CSV and Markdown, and a run as a page for a browser (an
 * {@code Accept} that prefers {@code text/html}), made in the same request with every
 * value escaped; after Jackson, so JSON stays the default.
 */
public final class ResultTextConverter extends AbstractHttpMessageConverter<Object> {

	public static final MediaType CSV = new MediaType("text", "csv", StandardCharsets.UTF_8);

	public static final MediaType MARKDOWN = new MediaType("text", "markdown", StandardCharsets.UTF_8);

	public static final MediaType TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);

	public static final MediaType HTML = new MediaType("text", "html", StandardCharsets.UTF_8);

	ResultTextConverter() {
		super(StandardCharsets.UTF_8, TEXT, CSV, MARKDOWN, HTML);
	}

	/**
	 * This and the recipes' converter after the default ones, so JSON stays the default.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Registration implements WebMvcConfigurer {

		@Override
		public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
			converters.add(new ResultTextConverter());
			converters.add(new RecipeTextConverter());
		}

	}

	/**
	 * A page is a run's: a browser asks every URL for text/html first, and a record or a
	 * pair stays JSON for it.
	 */
	@Override
	public List<MediaType> getSupportedMediaTypes(Class<?> clazz) {
		return (RunRecord.class.isAssignableFrom(clazz) || RunPair.class.isAssignableFrom(clazz))
				? List.of(TEXT, CSV, MARKDOWN) : super.getSupportedMediaTypes(clazz);
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
		// A converter is handed the answer, not the request with its columns=.
		HttpServletRequest request = (RequestContextHolder
			.getRequestAttributes() instanceof ServletRequestAttributes attributes) ? attributes.getRequest() : null;
		String columns = (request != null) ? request.getParameter(ApiParameter.COLUMNS.parameterName()) : null;
		String answer = format.equals("html")
				? page(Answer.of(value, format, columns), output.getHeaders().getFirst(HttpHeaders.CONTENT_LOCATION),
						(request != null) ? request.getContextPath() : "")
				: render(value, format, columns);
		output.getBody().write(answer.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * @param format {@code plain}, {@code csv} or {@code markdown}
	 */
	public static String render(Object value, String format, @Nullable String columns) {
		if (value instanceof RunPair pair) {
			return pair.render(format);
		}
		Answer answer = Answer.of(value, format, columns);
		// A comparison's answer before its evidence, as the page shows it.
		String first = (value instanceof Comparison comparison) ? comparison.summary()
				: (value instanceof RunRecord record && record.kind() == RunKind.COMPARE) ? record.summary() : null;
		return switch (format) {
			case "csv" -> ResultTable.resultsCsv(answer.picked(), answer.rows());
			case "markdown" -> ResultTable.markdown(answer.title() + ((first != null) ? "\n\n" + first : ""),
					answer.shown(), answer.rows(), answer.under()) + answer.extra();
			// Title and summary wrapped to a terminal's width.
			default -> ResultTable.text(
					TableColumns.wrap(answer.title()) + ((first != null) ? "\n\n" + TableColumns.wrap(first) : ""),
					answer.shown(), answer.rows(), (answer.under() != null) ? TableColumns.wrap(answer.under()) : null)
					+ (answer.extra().isEmpty() ? "" : TableColumns.wrap(answer.extra()));
		};
	}

	/**
	 * What every format shows of an answer: a title, the rows in the columns picked (and
	 * those of them with a value), the summary and warnings under the table, then notes,
	 * advice and the rest. {@code lead}: the answer's own first sentence, for the page.
	 */
	record Answer(String title, @Nullable String lead, List<RunResult> rows, List<ResultTable.Column<RunResult>> picked,
			List<ResultTable.Column<RunResult>> shown, @Nullable String under, String notes, String advice,
			String rest) {

		static Answer of(Object value, String format, @Nullable String columns) {
			List<RunResult> rows;
			String title;
			String lead = null;
			String skipped = "";
			Recommendation advice = null;
			String rest = "";
			if (value instanceof RunResult result) {
				rows = List.of(result);
				title = result.ran().operation().label().toUpperCase(Locale.ROOT) + " " + result.ran().variant() + ", "
						+ ran(rows, result.ran().count()) + " on " + result.ran().topology() + added(rows);
			}
			else if (value instanceof Comparison comparison) {
				rows = comparison.results();
				title = "compare "
						+ label(comparison.operation().label(), rows, comparison.count(), comparison.topology());
				lead = comparison.summary();
				skipped = skipped(comparison.skipped());
			}
			else if (value instanceof Sweep sweep) {
				rows = sweep.results();
				title = "sweep " + label(sweep.operation().label(), rows, sweep.count(), sweep.topology());
				lead = sweep.summary();
				advice = sweep.recommendation();
			}
			else {
				RunRecord record = (RunRecord) value;
				rows = (record.results() != null) ? record.results() : List.of();
				title = ResultTextConverter.title(record);
				lead = record.summary();
				skipped = skipped(record.skipped());
				advice = record.recommendation();
				if (record.problem() != null) {
					rest += record.problem().title() + ": " + record.problem().detail() + "\n";
				}
				if (Boolean.TRUE.equals(record.overlapped())) {
					rest += "warning: " + OVERLAPPED + "\n";
				}
				rest += environment(record.environment());
			}
			List<ResultTable.Column<RunResult>> picked = TableColumns.columns(columns, format, rows);
			return new Answer(title, lead, rows, picked, ResultTable.shown(picked, rows), ResultTable.under(rows),
					ResultTextConverter.notes(rows) + skipped,
					(advice != null) ? "recommended: " + advice.summary() + "\n" : "", rest);
		}

		String extra() {
			return this.notes + this.advice + this.rest;
		}

	}

	static final String OVERLAPPED = "another run of this app was measuring at the same time, so these figures measure"
			+ " each other too";

	/**
	 * The commands that ran: a fan-out's count per request, a time limit's before it
	 * ended.
	 */
	private static String ran(List<RunResult> rows, long count) {
		RunResult.FanOut fanOut = rows.isEmpty() ? null : rows.get(0).load().fanOut();
		int requests = (fanOut != null) ? fanOut.requests() : 1;
		long most = rows.stream().mapToLong(RunResult::commandsRan).max().orElse(count) * requests;
		return Format.WHOLE.shown(most) + " commands" + ((fanOut != null)
				? " (" + Format.WHOLE.shown(count) + " x " + Format.WHOLE.shown(requests) + " requests)" : "");
	}

	static String title(RunRecord record) {
		RunRecord.Request request = record.request();
		String what = (request.mode() != null) ? request.operation().toUpperCase(Locale.ROOT) + " " + request.mode()
				: record.kind().label() + " " + request.operation().toUpperCase(Locale.ROOT);
		List<RunResult> rows = Objects.requireNonNullElse(record.results(), List.of());
		return what + ", "
				+ (rows.isEmpty() ? Format.WHOLE.shown(request.count()) + " commands" : ran(rows, request.count()))
				+ " · " + record.status() + " · run " + record.id()
				+ ((record.finishedAt() != null) ? " · " + record.finishedAt() : "");
	}

	private static String label(String operation, List<RunResult> rows, long count, String topology) {
		return operation.toUpperCase(Locale.ROOT) + ", " + ran(rows, count) + " on " + topology + added(rows);
	}

	/** The relay's delay is part of what was measured: said where the run is named. */
	private static String added(List<RunResult> rows) {
		return rows.stream()
			.map((row) -> row.timing().addedRttMillis())
			.filter(Objects::nonNull)
			.findFirst()
			.map((rtt) -> ", " + Format.MILLIS.shown(rtt) + " ms RTT added")
			.orElse("");
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

	/**
	 * @param record the run's record ({@code Content-Location}), null where it has none
	 */
	static String page(Answer answer, @Nullable String record, String contextPath) {
		List<ResultTable.Column<RunResult>> columns = answer.shown();
		String summary = (answer.lead() != null) ? answer.lead() : ResultTable.summary(answer.rows());
		String links = (record == null) ? "" : """
				<p id="links" class="exports"><a id="record" href="%s">This run's record as JSON</a> · <a id="open" \
				href="%s">Open it in the lab's page</a> (charts, recipes, the projection). Loading this URL again runs \
				it again.</p>
				""".formatted(escape(record),
				escape(contextPath + "/?run=" + record.substring(record.lastIndexOf('/') + 1)));
		String rows = answer.rows()
			.stream()
			.map((row) -> "<tr>" + cells(columns,
					(column) -> "<td%s data-label=\"%s\">%s</td>".formatted(numeric(column), escape(column.name()),
							escape(column.shown(row))))
					+ "</tr>\n")
			.collect(Collectors.joining());
		String lines = (Objects.requireNonNullElse(ResultTable.warnings(answer.rows()), "") + "\n" + answer.notes()
				+ answer.rest())
			.lines()
			.filter((line) -> !line.isBlank())
			.map((line) -> "<li>" + escape(line) + "</li>")
			.collect(Collectors.joining());
		// The answer first: the run's own summary and its advice, then the figures.
		return """
				<!doctype html>
				<html lang="en"><head><meta charset="utf-8"><meta name="viewport" \
				content="width=device-width, initial-scale=1"><title>%1$s · pipelining-lab</title>\
				<link rel="stylesheet" href="%2$s/app.css"></head>
				<body><header><h1>pipelining-lab</h1></header><main><section class="panel"><h2 id="title">%1$s</h2>
				%3$s%4$s%5$s<div class="table-wrap"><table id="results-table" class="cards"><thead><tr>%6$s</tr>\
				</thead><tbody>
				%7$s</tbody></table></div>
				<ul id="notes" class="muted">%8$s</ul></section></main></body></html>
				""".formatted(escape(answer.title()), escape(contextPath),
				paragraph("summary", (summary != null) ? summary.replaceFirst("^summary: ", "") : null),
				paragraph("advice", answer.advice()), links,
				cells(columns, (column) -> "<th%s>%s</th>".formatted(numeric(column), escape(column.name()))), rows,
				lines);
	}

	private static String cells(List<ResultTable.Column<RunResult>> columns,
			Function<ResultTable.Column<RunResult>, String> cell) {
		return columns.stream().map(cell).collect(Collectors.joining());
	}

	private static String paragraph(String id, @Nullable String text) {
		return (text == null || text.isBlank()) ? ""
				: "<p id=\"" + id + "\">" + escape(text.strip()).replace("\n", "<br>") + "</p>\n";
	}

	private static String numeric(ResultTable.Column<RunResult> column) {
		return (column.format() == Format.TEXT) ? "" : " class=\"num\"";
	}

	private static String escape(String text) {
		return HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
	}

}
