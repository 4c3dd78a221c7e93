package dev.pipelininglab.web.guard;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Which host names the server answers to, and whether it may start beyond loopback
 * without credentials, under {@code lab.security.*}.
 *
 * @param allowedHosts host names (or addresses) a request's {@code Host} may name; any
 * other is answered 403, so a DNS-rebinding page cannot reach the app under a name of its
 * own. The address in {@code server.address} is allowed as well. Add the public name when
 * the app is deployed behind one (a reverse proxy, a container name); a single {@code *}
 * turns the check off.
 * @param open lets the app start on an address beyond loopback without
 * {@code spring.security.user.*} and answer anyone who reaches the port, as it does on
 * loopback: for a port that only its user can reach (a container port published on
 * 127.0.0.1). Without it, such a start fails ({@link ListenerSecurity}); with credentials
 * set, they are asked for either way.
 */
@ConfigurationProperties("lab.security")
@Validated
public record SecurityProperties(@DefaultValue( {
		"localhost", "127.0.0.1", "::1" }) @NotEmpty List<@NotBlank String> allowedHosts,
		@DefaultValue("false") boolean open){

}
