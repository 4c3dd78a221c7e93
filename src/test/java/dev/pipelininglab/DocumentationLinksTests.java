package dev.pipelininglab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link in {@code README.md}, {@code CONTRIBUTING.md} and {@code docs/*.md}
 * leads somewhere: the file exists, and an {@code #anchor} is the slug GitHub makes of a
 * heading in the target page. Links to other sites are not followed (no network).
 */
class DocumentationLinksTests {

	private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");

	private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");

	private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

	@Test
	void everyRelativeLinkAndAnchorResolves() throws IOException {
		List<Path> pages = pages();
		List<String> broken = new ArrayList<>();
		int checked = 0;
		for (Path page : pages) {
			for (String target : links(Files.readString(page))) {
				if (SCHEME.matcher(target).find()) {
					continue;
				}
				checked++;
				String problem = problemWith(page, target);
				if (problem != null) {
					broken.add(page + ": (" + target + ") " + problem);
				}
			}
		}
		assertThat(broken).as("links that lead nowhere").isEmpty();
		assertThat(checked).as("relative links checked in %s", pages).isGreaterThan(20);
	}

	@Test
	void theReadmeLinksEveryDocsPageAndContributing() throws IOException {
		Set<String> targets = new LinkedHashSet<>();
		for (String target : links(Files.readString(Path.of("README.md")))) {
			targets.add(target.replaceFirst("#.*", ""));
		}
		List<String> expected = new ArrayList<>();
		expected.add("CONTRIBUTING.md");
		try (Stream<Path> docs = Files.list(Path.of("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md"))
				.forEach((file) -> expected.add("docs/" + file.getFileName()));
		}
		assertThat(targets).containsAll(expected);
	}

	@Test
	void slugsAreGitHubs() {
		assertThat(slugs("# Settings beyond Spring Boot's defaults\n"))
			.containsExactly("settings-beyond-spring-boots-defaults");
		assertThat(slugs("## Run of 2026-11-23 11:10 UTC: the new defaults, on an idle machine\n"))
			.containsExactly("run-of-2026-11-23-1110-utc-the-new-defaults-on-an-idle-machine");
		assertThat(slugs("### Cluster against standalone: `/pipeset/1000000`, interleaved tries\n"))
			.containsExactly("cluster-against-standalone-pipeset1000000-interleaved-tries");
		assertThat(slugs("## The page at `/`\n")).containsExactly("the-page-at-");
		assertThat(slugs("### Machine\n### Machine\n```\n# not a heading\n```\n### Machine\n"))
			.containsExactly("machine", "machine-1", "machine-2");
		assertThat(slugs("## See [the API](docs/api.md) and *more*\n")).containsExactly("see-the-api-and-more");
	}

	/**
	 * Why {@code target}, linked from {@code page}, leads nowhere; null when it resolves.
	 */
	private static String problemWith(Path page, String target) throws IOException {
		int hash = target.indexOf('#');
		String file = (hash < 0) ? target : target.substring(0, hash);
		String anchor = (hash < 0) ? null : target.substring(hash + 1);
		Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
		if (!Files.exists(resolved)) {
			return "no such file " + resolved;
		}
		if (anchor == null) {
			return null;
		}
		if (!resolved.toString().endsWith(".md")) {
			return "an anchor into a file that is not Markdown";
		}
		Set<String> slugs = slugs(Files.readString(resolved));
		return slugs.contains(anchor) ? null : "no heading with the anchor #" + anchor + " in " + resolved;
	}

	private static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CONTRIBUTING.md")));
		try (Stream<Path> docs = Files.list(Path.of("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		return pages;
	}

	/** The targets of the inline links and images outside code. */
	private static List<String> links(String markdown) {
		List<String> targets = new ArrayList<>();
		for (String line : prose(markdown)) {
			Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
			while (link.find()) {
				targets.add(link.group(1));
			}
		}
		return targets;
	}

	/**
	 * The anchors GitHub gives the headings of a page, duplicates numbered as it does.
	 */
	static Set<String> slugs(String markdown) {
		Set<String> slugs = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : prose(markdown)) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(1));
				int times = seen.merge(slug, 1, Integer::sum);
				slugs.add((times == 1) ? slug : slug + "-" + (times - 1));
			}
		}
		return slugs;
	}

	/**
	 * GitHub's slug of a heading: its text as rendered (link targets, backticks and
	 * emphasis marks gone), lower case, without punctuation other than hyphens and
	 * underscores, each space a hyphen.
	 */
	private static String slug(String heading) {
		String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "").replace("*", "");
		return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M}_ -]", "").replace(' ', '-');
	}

	/** The lines outside fenced code blocks. */
	private static List<String> prose(String markdown) {
		List<String> lines = new ArrayList<>();
		String fence = null;
		for (String line : markdown.split("\n", -1)) {
			Matcher opening = FENCE.matcher(line);
			if (fence == null && opening.find()) {
				fence = opening.group(1);
			}
			else if (fence != null && line.strip().startsWith(fence)
					&& line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
				fence = null;
			}
			else if (fence == null) {
				lines.add(line);
			}
		}
		return lines;
	}

}
