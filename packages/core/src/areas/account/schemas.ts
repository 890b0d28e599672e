import * as v from 'valibot';
import { uuid } from '../../kernel/api/schemas.js';

export const projectRef = v.object({
  id: uuid,
  slug: v.string(),
  name: v.string(),
  /** Mail to it opens a ticket in the live environment (forward the team's support address here); null where the stage receives no mail. */
  inboundAddress: v.nullable(v.pipe(v.string(), v.email())),
  /** The same for the sandbox environment. */
  sandboxInboundAddress: v.nullable(v.pipe(v.string(), v.email())),
});

export const member = v.object({ id: uuid, email: v.string(), name: v.string(), role: v.picklist(['admin', 'agent']) });
