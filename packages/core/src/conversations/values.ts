/** Answers one customer ticket page link may post per minute: a person answers a few times, a script many. */
export const PAGE_POSTS_PER_MINUTE = 10;
