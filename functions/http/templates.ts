import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { importTemplate } from '@helpdesk/core/templates/import';
import { getTemplateSchema, listTemplates, previewEmail } from '@helpdesk/core/templates/read';
import { templateRoutes } from '@helpdesk/core/templates/routes';

export const handler = createGroupHandler(
  templateRoutes,
  {
    previewEmail: async ({ ctx, body }) => previewEmail(ctx, body),
    listTemplates: async ({ ctx }) => ({ templates: await listTemplates(ctx) }),
    getTemplateSchema: async ({ ctx, params }) => getTemplateSchema(ctx, params.key),
    getAccountTemplateSchema: async ({ ctx, params }) => getTemplateSchema(ctx, params.key, true),
    importTemplate: async ({ ctx, body }) => importTemplate(ctx, 'project', body),
    importAccountTemplate: async ({ ctx, body }) => importTemplate(ctx, 'account', body),
  },
  // Above the 512 KB rule, so an oversized file gets our 422 rather than the parser's 413.
  { multipart: { fileSize: 1024 * 1024 } },
);
