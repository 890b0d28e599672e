import type { EntityItem } from 'electrodb';
import { getObjectText, presignGet } from '../../kernel/ports/blob-store.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { FieldValues } from '../ticket-fields/field-values.js';
import { type Attachment, type Message, type Ticket, UNASSIGNED } from './entities.js';
import { metricsOf } from './metrics.js';
import { slaView } from './sla.js';

export type TicketItem = EntityItem<typeof Ticket>;
export type MessageItem = EntityItem<typeof Message>;
export type AttachmentItem = EntityItem<typeof Attachment>;

/** The list row; also the base of the detail. */
export const toRow = (ctx: TenantContext, t: TicketItem) => ({
  id: t.ticketId,
  projectId: t.projectId,
  projectSlug: ctx.projectSlug ?? null,
  number: t.number,
  subject: t.subject,
  status: t.status,
  priority: t.priority,
  category: t.category,
  assignedTo: t.assignee === UNASSIGNED ? null : t.assignee,
  customerEmail: t.customerEmail,
  customerName: t.customerName,
  lastSenderType: t.lastSenderType,
  lastMessageAt: t.lastMessageAt,
  customFields: valuesOf(t),
  sla: slaView(t),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export const toAttachment = async (a: AttachmentItem) => ({
  id: a.attachmentId,
  fileName: a.fileName,
  fileSize: a.fileSize,
  mimeType: a.mimeType,
  url: await presignGet(a.objectKey, a),
  createdAt: a.createdAt,
});

/** A received mail's whole text and HTML, kept beside the reply extracted from it. */
export interface OriginalMail {
  text: string;
  html?: string;
}

/** The original mail a message was extracted from, or null when its body is the whole mail. */
export async function loadOriginal(key: string | undefined): Promise<{ text: string; html: string | null } | null> {
  const stored = key ? await getObjectText(key) : undefined;
  if (!stored) return null;
  const original = JSON.parse(stored) as OriginalMail;
  return { text: original.text, html: original.html ?? null };
}

/** A message as the API shows it; with `original`, also the whole mail its body was extracted from. */
export const toMessage = async (m: MessageItem, attachments: AttachmentItem[], original = false) => ({
  id: m.messageId,
  ticketId: m.ticketId,
  senderType: m.senderType,
  visibility: m.visibility,
  body: m.body,
  createdAt: m.createdAt,
  attachments: await Promise.all(attachments.map(toAttachment)),
  ...(original ? { original: await loadOriginal(m.originalKey) } : {}),
});

export const toDetail = async (
  ctx: TenantContext,
  t: TicketItem,
  thread: { messages: MessageItem[]; attachments: AttachmentItem[]; tags: string[] },
  options: { original?: boolean } = {},
) => ({
  ...toRow(ctx, t),
  closedAt: t.closedAt ?? null,
  followUpOf: t.followUpOf ?? null,
  splitFrom: t.splitFrom ?? null,
  splitInto: t.splitInto ?? [],
  mergedInto: t.mergedInto ?? null,
  mergedAt: (t.merge as { at: string } | undefined)?.at ?? null,
  mergedFrom: t.mergedFrom ?? [],
  customer: { email: t.customerEmail, name: t.customerName },
  metrics: ticketMetricsView(t),
  otherCustomers: ((t.otherCustomers ?? []) as Array<{ email: string; name: string }>).map(({ email, name }) => ({
    email,
    name,
  })),
  messages: await Promise.all(
    thread.messages.map((m) =>
      toMessage(
        m,
        thread.attachments.filter((a) => a.messageId === m.messageId).sort((a, b) => a.position - b.position),
        options.original,
      ),
    ),
  ),
  tags: thread.tags,
});

/** `ticket.metrics`: first reply and (full) resolution times in calendar and business minutes, replies, reopenings. */
const ticketMetricsView = (t: TicketItem) => {
  const m = metricsOf(t);
  const minutes = (d: { calendar: number; business: number | null } | undefined) =>
    d ? { calendarMinutes: d.calendar, businessMinutes: d.business } : null;
  return {
    firstReply: minutes(m?.firstReply),
    resolution: minutes(m?.resolution),
    replies: m?.replies ?? 0,
    reopens: m?.reopens ?? 0,
  };
};

/** A ticket's custom field values (none for a ticket written before it had any). */
export const valuesOf = (t: Pick<TicketItem, 'customFields'>): FieldValues => (t.customFields as FieldValues) ?? {};

/** The ticket as webhook payloads show it: `customFields` when it holds any. */
export const eventTicket = (t: TicketItem) => {
  const values = valuesOf(t);
  return {
    id: t.ticketId,
    number: t.number,
    subject: t.subject,
    status: t.status,
    priority: t.priority,
    ...(Object.keys(values).length ? { customFields: values } : {}),
  };
};
export const eventCustomer = (t: TicketItem) => ({ email: t.customerEmail, name: t.customerName });
