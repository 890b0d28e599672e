import * as v from 'valibot';
import { integer, isoDateTime, lineText, maxChars, patchBody, stringMap, uuid } from '../../kernel/api/schemas.js';
import { plainLine } from '../../kernel/mail/plain-line.js';

export const MAX_METADATA_KEYS = 50;

export const customerEmail = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());
export const customerName = lineText(200);
const externalId = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(255),
  plainLine,
  v.metadata({ examples: ['cus_1042'] }),
);
const phone = v.pipe(v.string(), v.trim(), v.minLength(1), maxChars(50));
const metadata = stringMap({
  maxKeys: MAX_METADATA_KEYS,
  key: { pattern: /^[\s\S]{1,100}$/, says: 'Keys are 1 to 100 characters' },
});

/** Profile fields; null clears one on update. */
const profile = {
  name: v.optional(v.nullable(customerName)),
  externalId: v.optional(v.nullable(externalId)),
  phone: v.optional(v.nullable(phone)),
  metadata: v.optional(v.nullable(metadata)),
};

export const createCustomerBody = v.strictObject({ email: customerEmail, ...profile });
/** email is accepted only to be refused when it differs: it is immutable. */
export const updateCustomerBody = patchBody(
  { email: v.optional(v.string()), ...profile },
  'Give at least one of name, externalId, phone, metadata',
);
export type UpdateCustomerInput = v.InferOutput<typeof updateCustomerBody>;

export const customerSchema = v.object({
  id: uuid,
  email: v.string(),
  name: v.nullable(v.string()),
  externalId: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  metadata: v.record(v.string(), v.string()),
  ticketCount: integer,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
