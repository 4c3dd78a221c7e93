package dev.pipelininglab.run;

/**
 * A cluster master refused a transaction because its keys span hash slots; the message is
 * the problem's detail, with Redis's own reply and how hash tags fix it.
 */
public class CrossSlotTransactionException extends RuntimeException {

	CrossSlotTransactionException(String detail, Throwable cause) {
		super(detail, cause);
	}

}
