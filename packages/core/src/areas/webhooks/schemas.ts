import * as v from 'valibot';
import { isoDateTime, uuid } from '../../kernel/api/schemas.js';
import { EVENT_NAMES } from './values.js';

export const eventName = v.picklist(EVENT_NAMES);
export const events = v.pipe(
  v.array(eventName),
  v.minLength(1, 'Choose at least one event, or leave events out for all.'),
);
export const format = v.picklist(['json', 'chat']);
export const description = v.pipe(v.string(), v.maxLength(500));
export const url = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url(),
  v.check((s) => /^https?:\/\//i.test(s), 'The URL must use http or https.'),
  v.check((s) => {
    const u = URL.canParse(s) ? new URL(s) : undefined;
    return !u?.username && !u?.password;
  }, 'The URL must not carry credentials.'),
);

export const webhook = v.object({
  id: uuid,
  url: v.string(),
  events: v.array(eventName),
  format,
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  createdAt: isoDateTime,
});
export const webhookWithSecret = v.object({ ...webhook.entries, secret: v.string() });
