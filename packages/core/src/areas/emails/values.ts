/**
 * The emails queue's visibility timeout: the delivery consumer's time budget, after which SQS hands a
 * message to another consumer (a claim older than this belongs to one that died). The queue registry
 * takes it from here, so the registry stays free of domain code.
 */
export const DELIVERY_SECONDS = 60;
