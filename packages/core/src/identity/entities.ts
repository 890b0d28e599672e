import { Entity, Service } from 'electrodb';
import { timestamps } from '../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../kernel/db/client.js';
import { lazy } from '../kernel/db/lazy.js';
import { ENVIRONMENTS, PLANS } from '../kernel/tenant.js';

const allowanceOverrides = {
  type: 'map',
  properties: {
    tickets: { type: 'number' },
    emails: { type: 'number' },
    logEvents: { type: 'number' },
    storageBytes: { type: 'number' },
  },
} as const;

export const Account = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'account', version: '1', service: SERVICE },
        attributes: {
          accountId: { type: 'string', required: true, readOnly: true },
          name: { type: 'string', required: true },
          plan: { type: PLANS, required: true },
          limits: allowanceOverrides,
          ...timestamps,
        },
        indexes: {
          byId: {
            collection: 'tenant',
            pk: { field: 'pk', composite: ['accountId'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

export const Project = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'project', version: '1', service: SERVICE },
        attributes: {
          accountId: { type: 'string', required: true, readOnly: true },
          projectId: { type: 'string', required: true, readOnly: true },
          slug: { type: 'string', required: true },
          name: { type: 'string', required: true },
          senderEmail: { type: 'string' },
          /** The hosted help center's settings (areas/portal): its handle, whether it is on, its look. */
          portal: {
            type: 'map',
            properties: {
              enabled: { type: 'boolean' },
              handle: { type: 'string' },
              logoUrl: { type: 'string' },
              accentColor: { type: 'string' },
              footer: { type: 'string' },
            },
          },
          ...timestamps,
        },
        indexes: {
          byAccount: {
            collection: 'tenant',
            pk: { field: 'pk', composite: ['accountId'] },
            sk: { field: 'sk', composite: ['projectId'] },
          },
          /** A project by id alone: inbound mail names a project, not its account. */
          byId: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId'] },
            sk: { field: 'gsi1sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Account members: the people tickets can be assigned to. */
export const Member = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'member', version: '1', service: SERVICE },
        attributes: {
          accountId: { type: 'string', required: true, readOnly: true },
          memberId: { type: 'string', required: true, readOnly: true },
          email: { type: 'string', required: true },
          name: { type: 'string', required: true },
          role: { type: ['admin', 'agent'] as const, required: true, default: 'agent' },
          ...timestamps,
        },
        indexes: {
          byAccount: {
            pk: { field: 'pk', composite: ['accountId'] },
            sk: { field: 'sk', composite: ['memberId'] },
          },
          /** Console sign-in: an address to its memberships (one person may belong to several accounts). */
          byEmail: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['email'] },
            sk: { field: 'gsi1sk', composite: ['accountId', 'memberId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** API keys, addressed by the SHA-256 of the secret: the secret itself is never stored. */
export const ApiKey = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'apiKey', version: '1', service: SERVICE },
        attributes: {
          keyHash: { type: 'string', required: true, readOnly: true },
          keyId: { type: 'string', required: true, readOnly: true },
          accountId: { type: 'string', required: true, readOnly: true },
          env: { type: ENVIRONMENTS, required: true, readOnly: true },
          /** Project ids the key reaches; absent means every project of the account. */
          projectIds: { type: 'list', items: { type: 'string' } },
          scopes: { type: 'list', items: { type: 'string' }, required: true, default: () => [] },
          allowIps: { type: 'list', items: { type: 'string' }, required: true, default: () => [] },
          rateLimit: { type: 'number', required: true, default: 100 },
          /** The first characters of the key, to recognise it in a listing. */
          hint: { type: 'string', required: true },
          revokedAt: { type: 'string' },
          /** When a request last authenticated with the key, to within the principal cache's 30 s (auth/principal.ts). */
          lastUsedAt: { type: 'string' },
          ...timestamps,
        },
        indexes: {
          byHash: {
            pk: { field: 'pk', composite: ['keyHash'] },
            sk: { field: 'sk', composite: [] },
          },
          byId: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['keyId'] },
            sk: { field: 'gsi1sk', composite: [] },
          },
          /** The console's key list. */
          byAccount: {
            index: 'gsi2',
            pk: { field: 'gsi2pk', composite: ['accountId'] },
            sk: { field: 'gsi2sk', composite: ['keyId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Monthly usage per account (`period` = YYYY-MM), and the running storage total (`period` = total). Live data only. */
export const Usage = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'usage', version: '1', service: SERVICE },
        attributes: {
          accountId: { type: 'string', required: true, readOnly: true },
          period: { type: 'string', required: true, readOnly: true },
          tickets: { type: 'number' },
          emails: { type: 'number' },
          logEvents: { type: 'number' },
          storageBytes: { type: 'number' },
        },
        indexes: {
          byPeriod: {
            pk: { field: 'pk', composite: ['accountId'] },
            sk: { field: 'sk', composite: ['period'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Per-key, per-minute request counters; expire with TTL. */
export const RateWindow = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'rateWindow', version: '1', service: SERVICE },
        attributes: {
          keyId: { type: 'string', required: true, readOnly: true },
          window: { type: 'string', required: true, readOnly: true },
          count: { type: 'number' },
          expiresAt: { type: 'number' },
        },
        indexes: {
          byWindow: {
            pk: { field: 'pk', composite: ['keyId', 'window'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Account and its projects in one item collection: tenancy is resolved with one Query. */
export const tenantService = lazy(() => new Service({ account: Account, project: Project }, entityConfig()));
