import { gunzipSync, gzipSync } from 'node:zlib';
import { put } from '../../kernel/db/commit.js';
import type { AccountContext, Environment } from '../../kernel/tenant.js';
import { AccountTemplate, AccountTemplateVersion, ProjectTemplate, ProjectTemplateVersion } from './entities.js';
import { type ItemRef, qualifiedKey, type Scope, type TemplateType } from './keys.js';

/** Who asks: account items need only the account, project items also the project and environment. */
export type Owner = AccountContext & { projectId?: string };

export interface Head {
  scope: Scope;
  id: string;
  type: TemplateType;
  key: string;
  name: string;
  subject: string;
  layoutKey?: string;
  layoutId?: string;
  layoutLinked: boolean;
  version: number;
  referencedPartials: string[];
  /** Helpers the source (a template's body, not its subject) calls that do not exist; absent on items imported before it was recorded. */
  unknownHelpers?: { name: string; line: number }[];
  createdAt: string;
  updatedAt: string;
}

export interface Wanted {
  ref: ItemRef;
  type: TemplateType;
}

export const wantedId = (w: Wanted) => `${w.type}:${qualifiedKey(w.ref)}`;

const projectKeys = (owner: Owner) => {
  if (!owner.projectId) throw new Error('Project items need a project context');
  return { projectId: owner.projectId, env: owner.env as Environment };
};

const toHead = (scope: Scope, item: Omit<Head, 'scope'>): Head => ({ ...item, scope });

export async function getHead(owner: Owner, wanted: Wanted): Promise<Head | undefined> {
  const { type, ref } = wanted;
  const { data } =
    ref.scope === 'account'
      ? await AccountTemplate.get({ accountId: owner.accountId, type, key: ref.key }).go()
      : await ProjectTemplate.get({ ...projectKeys(owner), type, key: ref.key }).go();
  return data ? toHead(ref.scope, data) : undefined;
}

/** Several heads at once (a BatchGetItem per scope), keyed by `wantedId`. */
export async function getHeads(owner: Owner, wanted: Wanted[]): Promise<Map<string, Head>> {
  const out = new Map<string, Head>();
  const account = wanted.filter((w) => w.ref.scope === 'account');
  const project = wanted.filter((w) => w.ref.scope === 'project');
  const [a, p] = await Promise.all([
    account.length
      ? AccountTemplate.get(account.map((w) => ({ accountId: owner.accountId, type: w.type, key: w.ref.key }))).go()
      : undefined,
    project.length
      ? ProjectTemplate.get(project.map((w) => ({ ...projectKeys(owner), type: w.type, key: w.ref.key }))).go()
      : undefined,
  ]);
  for (const item of a?.data ?? []) {
    const head = toHead('account', item);
    out.set(wantedId({ ref: { scope: 'account', key: head.key }, type: head.type }), head);
  }
  for (const item of p?.data ?? []) {
    const head = toHead('project', item);
    out.set(wantedId({ ref: { scope: 'project', key: head.key }, type: head.type }), head);
  }
  return out;
}

/** One recorded version of an item as a head, with its source (one GetItem). */
export async function getVersion(
  owner: Owner,
  wanted: Wanted,
  version: number,
): Promise<{ head: Head; source: string } | undefined> {
  const { type, ref } = wanted;
  const { data } =
    ref.scope === 'account'
      ? await AccountTemplateVersion.get({ accountId: owner.accountId, type, key: ref.key, version }).go()
      : await ProjectTemplateVersion.get({ ...projectKeys(owner), type, key: ref.key, version }).go();
  if (!data) return undefined;
  const { source, ...rest } = data as typeof data & { projectId?: string; env?: string; accountId?: string };
  const { projectId: _p, env: _e, accountId: _a, ...fields } = rest;
  return {
    head: { ...fields, scope: ref.scope, updatedAt: fields.createdAt },
    source: gunzipSync(source as Uint8Array).toString('utf8'),
  };
}

export const versionId = (head: Pick<Head, 'id' | 'version'>) => `${head.id}:${head.version}`;

/** Sources of the given versions, keyed by `versionId`. */
export async function getSources(owner: Owner, heads: Head[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const account = heads.filter((h) => h.scope === 'account');
  const project = heads.filter((h) => h.scope === 'project');
  const [a, p] = await Promise.all([
    account.length
      ? AccountTemplateVersion.get(
          account.map((h) => ({ accountId: owner.accountId, type: h.type, key: h.key, version: h.version })),
        ).go()
      : undefined,
    project.length
      ? ProjectTemplateVersion.get(
          project.map((h) => ({ ...projectKeys(owner), type: h.type, key: h.key, version: h.version })),
        ).go()
      : undefined,
  ]);
  for (const item of [...(a?.data ?? []), ...(p?.data ?? [])]) {
    out.set(versionId(item), gunzipSync(item.source as Uint8Array).toString('utf8'));
  }
  return out;
}

/** Every head of one scope (one Query), sorted by type then key. */
export async function listHeads(owner: Owner, scope: Scope): Promise<Head[]> {
  const { data } =
    scope === 'account'
      ? await AccountTemplate.query.byKey({ accountId: owner.accountId }).go({ pages: 'all' })
      : await ProjectTemplate.query.byKey(projectKeys(owner)).go({ pages: 'all' });
  return data.map((item) => toHead(scope, item));
}

export const compressSource = (source: string) => gzipSync(Buffer.from(source, 'utf8'));

export type HeadInput = Omit<Head, 'scope' | 'createdAt' | 'updatedAt'> & { createdAt?: string };

/**
 * The writes of a new version: its row, and the head moved to it only from the version it was
 * prepared from (or created), so of two concurrent imports one is refused on `head` and prepares again.
 */
export function versionWrites(owner: Owner, scope: Scope, head: HeadInput, source: Buffer) {
  const previous = head.version - 1;
  const { createdAt: _c, ...row } = { ...head, source };
  if (scope === 'account') {
    const keys = { accountId: owner.accountId };
    return {
      head: put(
        AccountTemplate.put({ ...keys, ...head }).where((attr, op) =>
          previous === 0 ? op.notExists(attr.id) : op.eq(attr.version, previous),
        ),
      ),
      version: put(AccountTemplateVersion.create({ ...keys, ...row })),
    };
  }
  return {
    head: put(
      ProjectTemplate.put({ ...projectKeys(owner), ...head }).where((attr, op) =>
        previous === 0 ? op.notExists(attr.id) : op.eq(attr.version, previous),
      ),
    ),
    version: put(ProjectTemplateVersion.create({ ...projectKeys(owner), ...row })),
  };
}
