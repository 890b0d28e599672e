import * as v from 'valibot';
import { countHourly, countRequest } from '../../identity/rate-limit.js';
import { env } from '../../kernel/config.js';
import { viewerAddress } from '../../kernel/edge.js';
import { Problem } from '../../kernel/errors/problem.js';
import { ticketPageLink } from '../../kernel/links/ticket-page.js';
import { replyAddress } from '../../kernel/mail/reply-address.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { type FieldDef, usedFields } from '../ticket-fields/definitions.js';
import { createTicket } from '../tickets/create.js';
import { filesFromForm } from '../tickets/form-files.js';
import { formFields } from './content.js';
import { problemPage, type RequestValues, requestDonePage, requestFormPage } from './pages.js';
import { privatePage } from './respond.js';
import { portalRequest } from './schemas.js';
import type { Site } from './site.js';
import { HONEYPOT_FIELD, REQUEST_FILES, REQUESTS_PER_ADDRESS_PER_HOUR, REQUESTS_PER_IP_PER_MINUTE } from './values.js';
import { onSite, type PageRequest } from './views.js';

/** The form as the route took it: strings capped in length, files as the multipart parser gives them. */
export type RequestForm = Omit<RequestValues, 'custom'> & {
  [HONEYPOT_FIELD]?: string;
  file?: unknown;
  [control: string]: unknown;
};

/** The form's `cf.<key>` controls as typed (`cf.<key>[]` boxes as a list). */
function typedFields(form: RequestForm): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(form)) {
    if (!name.startsWith('cf.')) continue;
    const key = name.slice(3);
    if (typeof value === 'string') out[key] = value;
    else if (Array.isArray(value)) out[key] = value.filter((x): x is string => typeof x === 'string');
  }
  return out;
}

/**
 * What the controls say as the API's `customFields`: an empty control is no value, a number as a
 * number, a box as true or false, a browser's local date-time (no zone) as UTC. The definitions judge
 * the rest as they judge the API's.
 */
function customFieldsOf(fields: readonly FieldDef[], typed: Record<string, string | string[]>) {
  const values: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = typed[f.key];
    // A box: checked is true; left unchecked it says nothing (a required box must be checked).
    if (f.type === 'boolean') {
      if (raw === 'true') values[f.key] = true;
    } else if (f.type === 'multi-select') {
      if (Array.isArray(raw) && raw.length) values[f.key] = raw;
    } else if (typeof raw === 'string' && raw.trim() !== '')
      values[f.key] =
        f.type === 'number' && Number.isFinite(Number(raw))
          ? Number(raw)
          : f.type === 'datetime' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/.test(raw)
            ? `${raw.length === 16 ? `${raw}:00` : raw}Z`
            : raw;
  }
  return values;
}

/** Markdown's special characters written literally (the project's name is the team's text, still never markup). */
const literal = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>~&:@]/g, '\\$&');

/**
 * The customer's confirmation: the request's number and its page; answering the mail adds to the
 * ticket. Nothing the visitor typed is in it: the form takes any address, so its words must not reach
 * someone else's inbox in our name (a subject could carry a link).
 */
const confirmation = (ctx: TenantContext, site: Site, to: string, ticket: { ticketId: string; number: number }) =>
  prepareSystemEmail(ctx, {
    to,
    subject: `We received your request [#${ticket.number}]`,
    markdown: `Thank you for contacting ${literal(site.name)}. We received your request #${ticket.number} and will answer by email.\n\n[Follow your request online](${ticketPageLink(ctx, ticket.ticketId)}), or answer this mail to add to it.\n\nIf you did not write to us, you can ignore this mail.`,
    kind: 'portal_confirmation',
    metadata: { ticketId: ticket.ticketId },
    ...(env.inboundDomain ? { replyTo: replyAddress(ctx.project, ctx.env, ticket.number, env.inboundDomain) } : {}),
    threadId: ticket.ticketId,
  });

const retryAfter = (reset: number) => String(Math.max(1, reset - Math.floor(Date.now() / 1000)));

/**
 * POST /help/{handle}/requests: a ticket through the same use case as POST /tickets (customer matched
 * or created, `ticket.created` with `source: portal`, the plan's quota), its confirmation mail in the
 * same transaction. Refusals are pages: the form again with the problem by field (422), a limit (429),
 * the quota (a polite page with the quota's status), never a 500 for what a visitor sent.
 */
export const submitRequest = (req: PageRequest, form: RequestForm, sourceIp: string) =>
  onSite(req, async (site) => {
    const fields = formFields(await usedFields(site.ctx));
    const custom = typedFields(form);
    const values: RequestValues = {
      email: form.email,
      name: form.name,
      subject: form.subject,
      message: form.message,
      custom,
    };
    const again = (status: number, problems: Record<string, string>, notice?: string) =>
      privatePage(status, requestFormPage(site, fields, values, [], problems, notice));
    // A bot filled the field people never see: it is thanked and nothing is created.
    if (form[HONEYPOT_FIELD]) return privatePage(200, requestDonePage(site, undefined));
    const checked = v.safeParse(portalRequest, values);
    if (!checked.success) {
      const problems: Record<string, string> = {};
      for (const issue of checked.issues) {
        const key = v.getDotPath(issue) ?? 'message';
        problems[key] ??= issue.message;
      }
      return again(422, problems, 'Please check the fields marked below.');
    }
    const input = checked.output;
    const ip = await viewerAddress(req.headers, sourceIp);
    const [perIp, perAddress] = await Promise.all([
      // Per help center: one busy office (one IP) cannot lock every portal.
      countRequest(`portal-request-ip:${site.ctx.projectId}:${ip}`, REQUESTS_PER_IP_PER_MINUTE),
      countHourly(
        `portal-request-address:${site.ctx.projectId}:${input.email.toLowerCase()}`,
        REQUESTS_PER_ADDRESS_PER_HOUR,
      ),
    ]);
    const limited = perIp.exceeded ? perIp : perAddress.exceeded ? perAddress : undefined;
    if (limited)
      return privatePage(
        429,
        problemPage(site, 'Too many requests', 'Please wait a little before sending another request.'),
        {
          'retry-after': retryAfter(limited.reset),
        },
      );
    try {
      const attachments = filesFromForm(form.file);
      if (attachments.length > REQUEST_FILES) return again(422, { file: `Attach at most ${REQUEST_FILES} files.` });
      const ticket = await createTicket(site.ctx, {
        subject: input.subject,
        body: input.message,
        customer: { email: input.email, ...(input.name ? { name: input.name } : {}) },
        customFields: customFieldsOf(fields, custom),
        attachments,
        source: 'portal',
        alsoCommit: (created) => confirmation(site.ctx, site, input.email, created).writes,
      });
      return privatePage(200, requestDonePage(site, ticket.number));
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      if (err.code === 'validation.failed' || err.code === 'ticket.attachments_too_large') {
        // A field's problem goes under its control (customFields.<key> is cf.<key> in the form); the rest under the files.
        const problems: Record<string, string> = {};
        for (const issue of (err.details?.fields as { field: string; message: string }[] | undefined) ?? [])
          if (issue.field.startsWith('customFields.')) problems[`cf.${issue.field.slice(13)}`] ??= issue.message;
        if (!Object.keys(problems).length) problems.file = err.message;
        return again(422, problems, 'Please check the fields marked below.');
      }
      // Over the plan's tickets or storage: the team hears of it in its console; the visitor gets a page.
      return privatePage(
        err.status,
        problemPage(site, 'We cannot take new requests right now', 'Please try again later, or write to us by email.'),
        err.headers ?? {},
      );
    }
  });
