/** Feedback's enumerations, shared by the entities and the API schemas (which must not load the database client). */
export const CONVERSATION_STATUSES = ['open', 'closed'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export const SOURCES = ['api', 'request', 'portal'] as const;
export const SENDER_TYPES = ['customer', 'staff'] as const;
/** Stored request statuses; `expired` is derived on read from sentAt (see requests.ts). */
export const STORED_REQUEST_STATUSES = ['pending', 'sent', 'opened', 'responded'] as const;
