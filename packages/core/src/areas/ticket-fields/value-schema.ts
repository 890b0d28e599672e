import * as v from 'valibot';

/**
 * A stored value as the API and webhook payloads show it: text, url, email, select, date and datetime
 * as strings, multi-select a list. Apart from schemas.ts so that the event catalog, which every
 * function loads, takes nothing more.
 */
export const fieldValue = v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]);
