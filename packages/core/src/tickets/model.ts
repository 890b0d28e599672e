/** The ticket vocabulary, shared by the route schemas and the entities (no database imports here). */
export const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const CATEGORIES = ['bug', 'feature_request', 'billing', 'howto', 'other'] as const;
export const SENDER_TYPES = ['customer', 'staff'] as const;
export const VISIBILITIES = ['public', 'internal'] as const;
/** `assignee=unassigned` in the list, and the index value of a ticket nobody is assigned to. */
export const UNASSIGNED = 'unassigned';

export type Status = (typeof STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type Category = (typeof CATEGORIES)[number];
export type SenderType = (typeof SENDER_TYPES)[number];

export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;
export const TAG_MAX = 50;
export const TAGS_PER_CREATE = 20;
export const ATTACHMENTS_PER_MESSAGE = 10;
/** Decoded attachment bytes allowed per message: keeps the request under API Gateway's 10 MB payload. */
export const MAX_ATTACHMENT_BYTES = 7 * 1024 * 1024;
