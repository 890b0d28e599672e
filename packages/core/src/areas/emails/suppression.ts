import { isConditionFailure } from '../../kernel/db/errors.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { Suppression } from './entities.js';
import type { BlockReason } from './schemas.js';

type Scope = TenantKey;

/** One GetItem: why this address (or `Name <address>`) is suppressed, if it is. */
export async function suppressionOf(scope: Scope, address: string): Promise<BlockReason | undefined> {
  const { data } = await Suppression.get({
    projectId: scope.projectId,
    env: scope.env,
    email: bareAddress(address),
  }).go();
  return data?.reason;
}

/**
 * The suppressed addresses among several (keyed by bare address, lower-cased), in one BatchGetItem per
 * 100. Keys DynamoDB leaves unprocessed (throttling) are read one by one: an address not read must
 * never pass for one not suppressed.
 */
export async function suppressedAmong(scope: Scope, addresses: string[]): Promise<Map<string, BlockReason>> {
  const unique = [...new Set(addresses.map(bareAddress))];
  if (unique.length === 0) return new Map();
  const { data, unprocessed } = await Suppression.get(
    unique.map((email) => ({ projectId: scope.projectId, env: scope.env, email })),
  ).go();
  const found = new Map(data.map((s) => [s.email, s.reason]));
  for (const { email } of unprocessed) {
    const reason = await suppressionOf(scope, email);
    if (reason) found.set(email, reason);
  }
  return found;
}

/**
 * Adds an address to the project+environment's suppression list. An existing entry keeps its first
 * reason: a later manual suppression does not hide that the address bounced.
 */
export async function suppress(scope: Scope, address: string, reason: BlockReason, emailId?: string) {
  try {
    await Suppression.create({
      projectId: scope.projectId,
      env: scope.env,
      email: bareAddress(address),
      reason,
      emailId,
    }).go();
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
