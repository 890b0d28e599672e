import { EmailLog, emailListMigration } from '@helpdesk/core/areas/emails/entities';
import { sesEventsQueue } from '@helpdesk/core/areas/emails/queue';
import { checkProjectSender } from '@helpdesk/core/areas/emails/sender';
import { SES_EVENT_KINDS, sesNotification } from '@helpdesk/core/areas/emails/ses-notification';
import { ticketListMigration } from '@helpdesk/core/areas/tickets/entities';
import { resealWebhookSecrets } from '@helpdesk/core/areas/webhooks/reseal';
import {
  addMember,
  createAccount,
  createProject,
  loadTenant,
  reindexProjects,
  setAccountLimits,
} from '@helpdesk/core/identity/accounts';
import { isValidCidr } from '@helpdesk/core/identity/ip-allowlist';
import { createApiKey, revokeApiKey } from '@helpdesk/core/identity/keys';
import { tenantOfProject } from '@helpdesk/core/identity/tenant';
import { SCOPES } from '@helpdesk/core/kernel/api/route';
import { env } from '@helpdesk/core/kernel/config';
import { type ListMigration, reindexLists } from '@helpdesk/core/kernel/db/list-reindex';
import { outboxRecord, putOutbox, redriveOutbox, scanOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { rotateSigningSecret } from '@helpdesk/core/kernel/secrets';
import { ENVIRONMENTS, type Environment, PLANS, type Plan } from '@helpdesk/core/kernel/tenant';
import { list, optional, positiveInt, required, UsageError } from './args.js';
import { listDeadLetters, queueNamed, redriveDeadLetters } from './dead-letters.js';

type Flags = Record<string, string | true>;

/** An ISO 8601 time flag, normalized (the outbox keeps `createdAt` as toISOString()). */
const isoTime = (name: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw new UsageError(`--${name} must be an ISO 8601 time`);
  return new Date(ms).toISOString();
};

const oneOf = <T extends string>(name: string, value: string, allowed: readonly T[]): T => {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
};

async function tenantOf(accountId: string) {
  const tenant = await loadTenant(accountId);
  if (!tenant.account) throw new UsageError(`Account ${accountId} not found`);
  return tenant;
}

interface Command {
  usage: string;
  run(flags: Flags): Promise<unknown>;
}

/** `tickets:reindex-lists`, `emails:reindex-lists`: an entity's list migration (docs/architecture.md, Upgrading). */
function reindexListsCommand(entity: string, migration: ListMigration, step: () => 'narrow' | 'migrating'): Command {
  const setting = `${entity.toUpperCase()}_LISTS`;
  return {
    usage: `[--drop-legacy] after upgrading (docs/architecture.md, Upgrading): gives every ${entity} its ${entity} list entries; with --drop-legacy, once lists read them, removes the earlier ones`,
    async run(flags) {
      const dropLegacy = flags['drop-legacy'];
      if (dropLegacy !== undefined && dropLegacy !== true) throw new UsageError('--drop-legacy takes no value');
      if (dropLegacy && step() === 'migrating')
        throw new UsageError(`--drop-legacy needs ${setting}=narrow: lists still read the earlier entries`);
      return await reindexLists(migration, { dropLegacy: dropLegacy === true });
    },
  };
}

export const commands: Record<string, Command> = {
  'secret:rotate': {
    usage: '[--overlap-days 90]',
    async run(flags) {
      const overlapDays = positiveInt('overlap-days', optional(flags, 'overlap-days')) ?? 90;
      const { previousUntil } = await rotateSigningSecret(overlapDays);
      return { rotated: true, previousAcceptedUntil: previousUntil, webhookSecrets: await resealWebhookSecrets() };
    },
  },
  'dlq:list': {
    usage: "(no flags) each dead-letter queue's depth and first messages",
    async run() {
      return { deadLetterQueues: await listDeadLetters() };
    },
  },
  'dlq:redrive': {
    usage: '--queue NAME [--max N]  moves dead letters back to their queue (outbox: relays their batches again)',
    async run(flags) {
      const queue = await queueNamed(required(flags, 'queue'));
      return redriveDeadLetters(queue, positiveInt('max', optional(flags, 'max')));
    },
  },
  'outbox:redrive': {
    usage: '--since ISO [--until ISO] [--queue NAME]  has the relay take the outbox items created in the window again',
    async run(flags) {
      const since = isoTime('since', required(flags, 'since'));
      const until = isoTime('until', optional(flags, 'until'));
      const items = await scanOutbox({ since, until, queue: optional(flags, 'queue') });
      return { found: items.length, redriven: await redriveOutbox(items) };
    },
  },
  'ses:event': {
    usage: `--project ID --email ID --type ${SES_EVENT_KINDS.join('|')} [--env live|sandbox] [--link URL]  injects the notification SES would publish`,
    async run(flags) {
      const projectId = required(flags, 'project');
      const env = oneOf('env', optional(flags, 'env') ?? 'live', ENVIRONMENTS) as Environment;
      const kind = oneOf('type', required(flags, 'type'), SES_EVENT_KINDS);
      const emailId = required(flags, 'email');
      const { data: row } = await EmailLog.get({ projectId, env, emailId }).go();
      if (!row) throw new UsageError(`No email ${emailId} in project ${projectId} (${env})`);
      const tenant = await tenantOfProject(projectId, env);
      if (!tenant) throw new UsageError(`Project ${projectId} not found`);
      const event = sesNotification(
        kind,
        { accountId: tenant.accountId, projectId, env, emailId, to: row.to, sesMessageId: row.sesMessageId },
        { link: optional(flags, 'link') },
      );
      // Through the outbox onto the sesEvents queue, as SES's own notification arrives.
      await putOutbox([outboxRecord(sesEventsQueue, event)]);
      return { queued: true, eventType: event.eventType, emailId };
    },
  },
  'account:create': {
    usage: '--name N --plan free|starter|pro|business',
    async run(flags) {
      const account = await createAccount({
        name: required(flags, 'name'),
        plan: oneOf('plan', required(flags, 'plan'), PLANS) as Plan,
      });
      return { id: account.accountId, name: account.name, plan: account.plan, createdAt: account.createdAt };
    },
  },
  'account:limits': {
    usage: '--account ID [--tickets N] [--emails N] [--log-events N] [--storage-bytes N]',
    async run(flags) {
      const accountId = required(flags, 'account');
      await tenantOf(accountId);
      const account = await setAccountLimits(accountId, {
        tickets: positiveInt('tickets', optional(flags, 'tickets')),
        emails: positiveInt('emails', optional(flags, 'emails')),
        logEvents: positiveInt('log-events', optional(flags, 'log-events')),
        storageBytes: positiveInt('storage-bytes', optional(flags, 'storage-bytes')),
      });
      return { id: accountId, plan: account?.plan, limits: account?.limits ?? {} };
    },
  },
  'projects:index': {
    usage: '(no flags) once after upgrading: gives every project the by-id index inbound mail uses',
    async run() {
      return { projects: await reindexProjects() };
    },
  },
  'tickets:reindex-lists': reindexListsCommand('ticket', ticketListMigration, () => env.ticketLists),
  'emails:reindex-lists': reindexListsCommand('email', emailListMigration, () => env.emailLists),
  'project:create': {
    usage: '--account ID --slug S --name N [--sender "Name <address@verified-domain>"]',
    async run(flags) {
      const accountId = required(flags, 'account');
      await tenantOf(accountId);
      try {
        const sender = optional(flags, 'sender');
        // Checked here, where a sender is set, so the API's bundles do not carry the SES identity lookup.
        const senderEmail = sender === undefined ? undefined : await checkProjectSender(sender);
        const p = await createProject({
          accountId,
          slug: required(flags, 'slug'),
          name: required(flags, 'name'),
          senderEmail,
        });
        return {
          id: p.projectId,
          accountId,
          slug: p.slug,
          name: p.name,
          senderEmail: p.senderEmail ?? null,
          createdAt: p.createdAt,
        };
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError((err as Error).message);
      }
    },
  },
  'key:create': {
    usage:
      '--account ID --env live|sandbox [--projects all|ID-or-slug,...] [--scopes a:b,...] [--allow-ip CIDR,...] [--rate-limit N]',
    async run(flags) {
      const accountId = required(flags, 'account');
      const { projects } = await tenantOf(accountId);
      const env = oneOf('env', required(flags, 'env'), ENVIRONMENTS) as Environment;
      const named = list(optional(flags, 'projects'));
      let projectIds: string[] | undefined;
      if (named && !(named.length === 1 && named[0] === 'all')) {
        projectIds = named.map((ref) => {
          const p = projects.find((x) => x.projectId === ref || x.slug === ref);
          if (!p) throw new UsageError(`Project "${ref}" is not in account ${accountId}`);
          return p.projectId;
        });
      }
      const scopes = list(optional(flags, 'scopes')) ?? [];
      for (const s of scopes) oneOf('scopes', s, SCOPES);
      const allowIps = list(optional(flags, 'allow-ip')) ?? [];
      for (const ip of allowIps)
        if (!isValidCidr(ip)) throw new UsageError(`--allow-ip "${ip}" is not an IPv4/IPv6 address or CIDR`);
      return createApiKey({
        accountId,
        env,
        projectIds,
        scopes,
        allowIps,
        rateLimit: positiveInt('rate-limit', optional(flags, 'rate-limit')),
      });
    },
  },
  'key:revoke': {
    usage: '--key-id ID',
    async run(flags) {
      const keyId = required(flags, 'key-id');
      const revoked = await revokeApiKey(keyId);
      if (!revoked) throw new UsageError(`Key ${keyId} not found`);
      return revoked;
    },
  },
  'member:add': {
    usage: '--account ID --email E --name N [--role admin|agent]',
    async run(flags) {
      const accountId = required(flags, 'account');
      await tenantOf(accountId);
      const email = required(flags, 'email');
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`--email "${email}" is not an email address`);
      const role = oneOf('role', optional(flags, 'role') ?? 'agent', ['admin', 'agent'] as const);
      const m = await addMember({ accountId, email, name: required(flags, 'name'), role });
      return { id: m.memberId, email: m.email, name: m.name, role: m.role };
    },
  },
};
