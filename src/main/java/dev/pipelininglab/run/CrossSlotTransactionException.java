package dev.pipelininglab.run;

/** A master refused a transaction whose keys span hash slots. */
public class CrossSlotTransactionException extends RuntimeException {

	CrossSlotTransactionException(String detail, Throwable cause) {
		super(detail, cause);
	}

}
