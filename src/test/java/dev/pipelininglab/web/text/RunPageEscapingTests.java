package dev.pipelininglab.web.text;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every value on a run's page is escaped: a title, a summary, a note, the links. */
class RunPageEscapingTests {

	@Test
	void markupInAnyValueReachesThePageAsText() {
		ResultTextConverter.Answer answer = new ResultTextConverter.Answer("<b>SET</b>", "<script>alert(1)</script>",
				List.of(), List.of(), List.of(), null, "note: loop: value-<i> & more\n",
				"recommended: <img src=x onerror=alert(2)>\n", "");
		String page = ResultTextConverter.page(answer, "/runs/\"><script>alert(3)</script>", "/lab\"");
		assertThat(page).doesNotContain("<script>", "<b>", "<img", "<i>", "/lab\"")
			.contains("&lt;b&gt;SET&lt;/b&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;", "value-&lt;i&gt; &amp; more",
					"&lt;img src=x onerror=alert(2)&gt;", "href=\"/runs/&quot;&gt;&lt;script&gt;alert(3)");
	}

}
