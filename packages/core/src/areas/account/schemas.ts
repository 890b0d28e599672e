import * as v from 'valibot';
import { uuid } from '../../kernel/api/schemas.js';
import { portalView } from '../portal/schemas.js';

export const projectRef = v.object({
  id: uuid,
  slug: v.string(),
  name: v.string(),
  /** Mail to it opens a ticket in the live environment (forward the team's support address here); null where the stage receives no mail. */
  inboundAddress: v.nullable(v.pipe(v.string(), v.email())),
  /** The same for the sandbox environment. */
  sandboxInboundAddress: v.nullable(v.pipe(v.string(), v.email())),
  /** The project's hosted help center (live articles only): `{PUBLIC_BASE_URL}/help/{handle}`. */
  portal: portalView,
});

/** PATCH /projects/{projectId}'s answer. */
export const projectSettings = v.object({ id: uuid, slug: v.string(), name: v.string(), portal: portalView });

export const member = v.object({ id: uuid, email: v.string(), name: v.string(), role: v.picklist(['admin', 'agent']) });
