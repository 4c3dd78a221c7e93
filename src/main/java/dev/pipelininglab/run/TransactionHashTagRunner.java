package dev.pipelininglab.run;

import org.springframework.stereotype.Component;

/**
 * The cluster's way to run a batch as a transaction: its master takes MULTI ... EXEC
 * whole.
 */
@Component
class TransactionHashTagRunner extends BatchRunner.HashTagged {

	TransactionHashTagRunner(TransactionRunner transaction) {
		super(Mode.TRANSACTION_HASHTAG, transaction);
	}

}
