import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { KEY_PATTERN, REF_PATTERN } from './keys.js';
import { importBody, importResult, previewBody, previewResult, templateRow, templateSchema } from './schemas.js';

const common = { group: 'templates' as const, tenancy: 'project' as const, tags: ['Emails'] };
const keyParam = { key: v.pipe(v.string(), v.regex(KEY_PATTERN), v.metadata({ examples: ['welcome'] })) };

export const templateRoutes = {
  previewEmail: defineRoute({
    ...common,
    id: 'previewEmail',
    method: 'POST',
    path: '/emails/preview',
    scope: 'emails:send',
    summary: 'Render a template or custom email without sending or storing anything',
    body: previewBody,
    response: previewResult,
    problems: ['template.not_found', 'template.render_failed', 'template.unknown_helper', 'template.invalid'],
  }),
  listTemplates: defineRoute({
    ...common,
    id: 'listTemplates',
    method: 'GET',
    path: '/email-templates',
    scope: 'emails:send',
    summary: 'List templates, layouts and partials: the project items, then the shared @account/ items',
    response: v.object({ templates: v.array(templateRow) }),
  }),
  getTemplateSchema: defineRoute({
    ...common,
    id: 'getTemplateSchema',
    method: 'GET',
    path: '/email-templates/{key}/schema',
    scope: 'emails:manage',
    summary: 'Variables a template expects: a project key, or an @account/ key sent encoded (%40account%2F<key>)',
    params: { key: v.pipe(v.string(), v.regex(REF_PATTERN), v.metadata({ examples: ['welcome'] })) },
    response: templateSchema,
  }),
  getAccountTemplateSchema: defineRoute({
    ...common,
    id: 'getAccountTemplateSchema',
    method: 'GET',
    path: '/email-templates/@account/{key}/schema',
    scope: 'emails:manage',
    summary: 'Variables a shared @account/ template expects',
    params: keyParam,
    response: templateSchema,
  }),
  importTemplate: defineRoute({
    ...common,
    id: 'importTemplate',
    method: 'POST',
    path: '/email-templates/import',
    scope: 'emails:manage',
    summary: 'Import a .hbs file into the project as a template, layout or partial',
    bodyType: 'multipart',
    body: importBody,
    response: importResult,
    problems: ['template.invalid', 'template.too_large'],
  }),
  importAccountTemplate: defineRoute({
    ...common,
    id: 'importAccountTemplate',
    method: 'POST',
    path: '/account/email-templates/import',
    tenancy: 'account',
    accountWrite: true,
    scope: 'emails:manage',
    summary: 'Import a .hbs file into the account scope, shared by every project as @account/<key>',
    bodyType: 'multipart',
    body: importBody,
    response: importResult,
    problems: ['template.invalid', 'template.too_large'],
  }),
} satisfies Record<string, RouteDef>;
