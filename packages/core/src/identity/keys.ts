import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Environment } from '../kernel/tenant.js';
import { ApiKey } from './entities.js';

export const KEY_PREFIX: Record<Environment, string> = { live: 'sk_live_', sandbox: 'sk_sandbox_' };

export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The environment a key's prefix bounds it to, or undefined for a string that is not a key. */
export const keyEnvironment = (secret: string): Environment | undefined => {
  if (/^sk_live_[A-Za-z0-9_-]{43,}$/.test(secret)) return 'live';
  if (/^sk_sandbox_[A-Za-z0-9_-]{43,}$/.test(secret)) return 'sandbox';
  return undefined;
};

export interface CreateKeyInput {
  accountId: string;
  env: Environment;
  projectIds?: string[];
  scopes?: string[];
  allowIps?: string[];
  rateLimit?: number;
}

/** Creates a key; the secret is returned here once and only its hash is stored. */
export async function createApiKey(input: CreateKeyInput) {
  const key = KEY_PREFIX[input.env] + randomBytes(32).toString('base64url');
  const keyId = randomUUID();
  await ApiKey.create({
    keyHash: hashKey(key),
    keyId,
    accountId: input.accountId,
    env: input.env,
    projectIds: input.projectIds,
    scopes: input.scopes ?? [],
    allowIps: input.allowIps ?? [],
    rateLimit: input.rateLimit ?? 100,
    hint: key.slice(0, KEY_PREFIX[input.env].length + 4),
  }).go();
  return { id: keyId, key };
}

/** Every key of an account, revoked ones included, oldest first (the console's list). */
export async function listApiKeys(accountId: string) {
  const { data } = await ApiKey.query.byAccount({ accountId }).go({ pages: 'all' });
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** `accountId`, when given, must own the key: another account's key is as unknown as a missing one. */
export async function revokeApiKey(keyId: string, accountId?: string) {
  const { data } = await ApiKey.query.byId({ keyId }).go();
  const record = data[0];
  if (!record || (accountId !== undefined && record.accountId !== accountId)) return undefined;
  const revokedAt = new Date().toISOString();
  await ApiKey.patch({ keyHash: record.keyHash }).set({ revokedAt }).go();
  return { id: keyId, revokedAt };
}
