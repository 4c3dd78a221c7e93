package dev.pipelininglab.web.tomcat;

import java.lang.reflect.Field;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.http11.Http11InputBuffer;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract between {@link CallerConnection} and the Tomcat it reads: the request
 * facade still holds its Catalina request in {@code request}, and the HTTP/1.1 input
 * buffer its socket in {@code wrapper}. A Tomcat upgrade that moves either fails here,
 * naming the field, instead of quietly leaving every hung-up run going until max-run-time
 * ({@code CallerHangsUpTests} shows the whole behaviour over a real socket).
 */
class TomcatHooksContractTests {

	@Test
	void theRequestFacadeHoldsItsCatalinaRequest() {
		assertField(RequestFacade.class, "request", Request.class);
	}

	@Test
	void theHttp11InputBufferHoldsItsSocket() {
		assertField(Http11InputBuffer.class, "wrapper", SocketWrapperBase.class);
	}

	@Test
	void aRequestNotFromTomcatCountsAsConnected() {
		assertThat(CallerConnection.of(new MockHttpServletRequest()).gone()).isFalse();
	}

	private static void assertField(Class<?> owner, String name, Class<?> type) {
		Field field = java.util.Arrays.stream(owner.getDeclaredFields())
			.filter((each) -> each.getName().equals(name))
			.findFirst()
			.orElse(null);
		assertThat(field)
			.as("%s.%s, which CallerConnection reads to see a caller hang up, is gone in this Tomcat", owner.getName(),
					name)
			.isNotNull();
		assertThat(type.isAssignableFrom(field.getType())).as("%s.%s holds a %s", owner.getName(), name, type.getName())
			.isTrue();
	}

}
