package dev.pipelininglab;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a configured host is this machine, without looking a name up. */
public final class Loopback {

	private Loopback() {
	}

	public static boolean is(String host) {
		String literal = (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
		if (literal.equalsIgnoreCase("localhost")) {
			return true;
		}
		// IP literals only: a DNS lookup could stall startup.
		if (!literal.contains(":") && !literal.matches("[0-9.]+")) {
			return false;
		}
		try {
			return InetAddress.getByName(literal).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
