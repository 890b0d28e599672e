import { templateRoutes } from '@helpdesk/core/areas/templates/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Handlebars, marked and the HTML-to-text converter load on first use: each `await import` is a chunk.
const use = routeModules({
  read: () => import('@helpdesk/core/areas/templates/read'),
  importer: () => import('@helpdesk/core/areas/templates/import'),
});

export const handler = createGroupHandler(
  templateRoutes,
  {
    previewEmail: async ({ ctx, body }) => (await use.read()).previewEmail(ctx, body),
    listTemplates: async ({ ctx }) => ({ templates: await (await use.read()).listTemplates(ctx) }),
    getTemplateSchema: async ({ ctx, params }) => (await use.read()).getTemplateSchema(ctx, params.key),
    getAccountTemplateSchema: async ({ ctx, params }) => (await use.read()).getTemplateSchema(ctx, params.key, true),
    importTemplate: async ({ ctx, body }) => (await use.importer()).importTemplate(ctx, 'project', body),
    importAccountTemplate: async ({ ctx, body }) => (await use.importer()).importTemplate(ctx, 'account', body),
  },
  // Above the 512 KB rule, so an oversized file gets our 422 rather than the parser's 413.
  { multipart: { fileSize: 1024 * 1024 } },
);
