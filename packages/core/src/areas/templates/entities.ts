import { Entity } from 'electrodb';
import { timestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { TEMPLATE_TYPES } from './keys.js';

/** Helpers a source calls that the renderer does not have, found at import so a send can refuse it without compiling. */
const unknownHelpers = {
  type: 'list',
  items: {
    type: 'map',
    properties: { name: { type: 'string', required: true }, line: { type: 'number', required: true } },
  },
} as const;

/** The current state of a template, layout or partial; the source lives in its version rows. */
const headAttributes = {
  id: { type: 'string', required: true, readOnly: true },
  type: { type: TEMPLATE_TYPES, required: true, readOnly: true },
  key: { type: 'string', required: true, readOnly: true },
  name: { type: 'string', required: true },
  subject: { type: 'string', required: true, default: '' },
  /** Qualified layout key (`base` or `@account/base`), templates only. */
  layoutKey: { type: 'string' },
  layoutId: { type: 'string' },
  layoutLinked: { type: 'boolean', required: true, default: false },
  version: { type: 'number', required: true },
  /** Qualified partial keys this item's own source (and a template's subject) references. */
  referencedPartials: { type: 'list', items: { type: 'string' }, required: true, default: () => [] },
  unknownHelpers,
  ...timestamps,
} as const;

/** Every version ever imported, so a send can name the version it used. Source gzipped: items cap at 400 KB. */
const versionAttributes = {
  id: { type: 'string', required: true, readOnly: true },
  type: { type: TEMPLATE_TYPES, required: true, readOnly: true },
  key: { type: 'string', required: true, readOnly: true },
  version: { type: 'number', required: true, readOnly: true },
  name: { type: 'string', required: true },
  subject: { type: 'string', required: true, default: '' },
  layoutKey: { type: 'string' },
  layoutId: { type: 'string' },
  layoutLinked: { type: 'boolean', required: true, default: false },
  referencedPartials: { type: 'list', items: { type: 'string' }, required: true, default: () => [] },
  unknownHelpers,
  source: { type: 'any', required: true },
  createdAt: timestamps.createdAt,
} as const;

export const ProjectTemplate = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'emailTemplate', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ...headAttributes,
        },
        indexes: {
          byKey: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['type', 'key'] },
          },
        },
      },
      entityConfig(),
    ),
);

export const ProjectTemplateVersion = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'emailTemplateVersion', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ...versionAttributes,
        },
        indexes: {
          byVersion: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['type', 'key', 'version'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Account items: one copy for every project and both environments. */
export const AccountTemplate = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'accountEmailTemplate', version: '1', service: SERVICE },
        attributes: {
          accountId: { type: 'string', required: true, readOnly: true },
          ...headAttributes,
        },
        indexes: {
          byKey: {
            pk: { field: 'pk', composite: ['accountId'] },
            sk: { field: 'sk', composite: ['type', 'key'] },
          },
        },
      },
      entityConfig(),
    ),
);

export const AccountTemplateVersion = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'accountEmailTemplateVersion', version: '1', service: SERVICE },
        attributes: {
          accountId: { type: 'string', required: true, readOnly: true },
          ...versionAttributes,
        },
        indexes: {
          byVersion: {
            pk: { field: 'pk', composite: ['accountId'] },
            sk: { field: 'sk', composite: ['type', 'key', 'version'] },
          },
        },
      },
      entityConfig(),
    ),
);
