import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';
import { templateRoutes } from '@helpdesk/core/templates/routes';

// Handlebars, marked and the HTML-to-text converter load on first use: each `await import` is a chunk.
const read = onFirstCall(() => import('@helpdesk/core/templates/read'));
const importer = onFirstCall(() => import('@helpdesk/core/templates/import'));

export const handler = createGroupHandler(
  templateRoutes,
  {
    previewEmail: async ({ ctx, body }) => (await read()).previewEmail(ctx, body),
    listTemplates: async ({ ctx }) => ({ templates: await (await read()).listTemplates(ctx) }),
    getTemplateSchema: async ({ ctx, params }) => (await read()).getTemplateSchema(ctx, params.key),
    getAccountTemplateSchema: async ({ ctx, params }) => (await read()).getTemplateSchema(ctx, params.key, true),
    importTemplate: async ({ ctx, body }) => (await importer()).importTemplate(ctx, 'project', body),
    importAccountTemplate: async ({ ctx, body }) => (await importer()).importTemplate(ctx, 'account', body),
  },
  // Above the 512 KB rule, so an oversized file gets our 422 rather than the parser's 413.
  { multipart: { fileSize: 1024 * 1024 } },
);
