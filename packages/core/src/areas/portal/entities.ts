import { Entity } from 'electrodb';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';

/**
 * A portal handle, unique across the whole service (one item per handle, claimed with a conditional
 * put). The current handle of a project has no `movedTo`; an old one names the handle it moved to and
 * expires (TTL) after the redirect period, which frees it.
 */
export const PortalHandle = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'portalHandle', version: '1', service: SERVICE },
        attributes: {
          handle: { type: 'string', required: true, readOnly: true },
          accountId: { type: 'string', required: true },
          projectId: { type: 'string', required: true },
          movedTo: { type: 'string' },
          expiresAt: { type: 'number' },
        },
        indexes: {
          byHandle: {
            pk: { field: 'pk', composite: ['handle'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * One visitor's vote on one article on one day (visitor: a hash of source IP and user agent, no
 * cookie), written with the vote's count in one transaction; expires after two days.
 */
export const PortalVote = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'portalVote', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          articleId: { type: 'string', required: true, readOnly: true },
          day: { type: 'string', required: true, readOnly: true },
          visitor: { type: 'string', required: true, readOnly: true },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byVisitor: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'articleId'] },
            sk: { field: 'sk', composite: ['day', 'visitor'] },
          },
        },
      },
      entityConfig(),
    ),
);
