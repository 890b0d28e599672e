/** Answers one customer ticket page link may post per minute: a person answers a few times, a script many. */
export const PAGE_POSTS_PER_MINUTE = 10;

/** Where raw received mail is stored in the bucket (SES's receipt rule and the local SMTP stand-in). */
export const INBOUND_PREFIX = 'inbound/';
/** Raw mail is kept as long as SQS may redeliver its notification (attachments are copied to their ticket). */
export const INBOUND_RAW_DAYS = 15;
/** Refused before parsing; the local SMTP stand-in refuses larger mail with 552 (README, Inbound mail). */
export const MAX_INBOUND_BYTES = 10 * 1024 * 1024;
