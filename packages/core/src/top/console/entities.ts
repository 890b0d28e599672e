import { Entity } from 'electrodb';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';

/**
 * A signed-in console session, addressed by the SHA-256 of the cookie's random id (the id itself is
 * never stored). Holds the member, the per-session CSRF token and the project and environment chosen.
 */
export const ConsoleSession = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'consoleSession', version: '1', service: SERVICE },
        attributes: {
          sessionHash: { type: 'string', required: true, readOnly: true },
          accountId: { type: 'string', required: true, readOnly: true },
          memberId: { type: 'string', required: true, readOnly: true },
          csrf: { type: 'string', required: true, readOnly: true },
          projectId: { type: 'string' },
          env: { type: ENVIRONMENTS, required: true, default: 'live' },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byHash: {
            pk: { field: 'pk', composite: ['sessionHash'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/** An emailed one-time sign-in link, addressed by the SHA-256 of its token; deleted when used. */
export const ConsoleSignIn = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'consoleSignIn', version: '1', service: SERVICE },
        attributes: {
          tokenHash: { type: 'string', required: true, readOnly: true },
          accountId: { type: 'string', required: true, readOnly: true },
          memberId: { type: 'string', required: true, readOnly: true },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byHash: {
            pk: { field: 'pk', composite: ['tokenHash'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);
