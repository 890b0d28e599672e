import createClient from 'openapi-fetch';
import type { PathsWithFields, TicketFields } from './fields.js';

export type { FieldValue, PathsWithFields, TicketFields } from './fields.js';
export type { paths } from './schema.js';

export interface HelpdeskClientOptions {
  /** The API base, ending in /api/v1 (e.g. http://127.0.0.1:3000/api/v1). */
  baseUrl: string;
  apiKey: string;
  /** Project slug or id, for keys that reach several projects. */
  project?: string;
  /** Ask a live key for sandbox data. */
  environment?: 'live' | 'sandbox';
  fetch?: typeof fetch;
}

/**
 * A typed client: paths, parameters, bodies and responses come from the generated OpenAPI types
 * (schema.d.ts, `npm run client`). Give your project's ticket fields to type every `customFields`:
 * `createHelpdeskClient<{ order_id: string; plan: 'free' | 'pro' }>(options)`.
 */
export function createHelpdeskClient<F extends TicketFields = TicketFields>(options: HelpdeskClientOptions) {
  return createClient<PathsWithFields<F>>({
    baseUrl: options.baseUrl,
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      ...(options.project ? { 'Service-Project': options.project } : {}),
      ...(options.environment ? { 'Service-Environment': options.environment } : {}),
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export { type AttachmentFile, UploadError, uploadAttachment } from './uploads.js';
export { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.js';
