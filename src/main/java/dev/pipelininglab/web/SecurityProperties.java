package dev.pipelininglab.web;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Which host names the server answers to, under {@code lab.security.*}.
 *
 * @param allowedHosts host names (or addresses) a request's {@code Host} may name; any
 * other is answered 403, so a DNS-rebinding page cannot reach the app under a name of its
 * own. The address in {@code server.address} is allowed as well. Add the public name when
 * the app is deployed behind one (a reverse proxy, a container name); a single {@code *}
 * turns the check off.
 */
@ConfigurationProperties("lab.security")
@Validated
public record SecurityProperties(@DefaultValue( {
		"localhost", "127.0.0.1", "::1" }) @NotEmpty List<@NotBlank String> allowedHosts){

}
