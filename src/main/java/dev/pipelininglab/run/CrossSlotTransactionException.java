package dev.pipelininglab.run;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/** A master refused a transaction whose keys span hash slots. */
public class CrossSlotTransactionException extends ProblemException {

	CrossSlotTransactionException(String detail, Throwable cause) {
		super(ProblemType.CROSS_SLOT_TRANSACTION, detail);
		initCause(cause);
	}

}
