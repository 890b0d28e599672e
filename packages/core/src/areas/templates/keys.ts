/** Account items are addressed with this prefix everywhere: sends, layouts, partial references, listings. */
export const ACCOUNT_PREFIX = '@account/';

export const KEY_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
/** A key as a request names it (`@account/` prefix included): bounded before any lookup. */
export const REF_MAX = 200;
/** A key as items are referred to: a project key, or an account key behind its prefix. */
export const REF_PATTERN = /^(@account\/)?[A-Za-z0-9._-]{1,100}$/;

export const TEMPLATE_TYPES = ['template', 'layout', 'partial'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export type Scope = 'project' | 'account';

export interface ItemRef {
  scope: Scope;
  key: string;
}

/** `@account/welcome` -> account `welcome`; `welcome` -> the scope the reference was written in. */
export function parseRef(ref: string, within: Scope = 'project'): ItemRef | undefined {
  const account = ref.startsWith(ACCOUNT_PREFIX);
  const key = account ? ref.slice(ACCOUNT_PREFIX.length) : ref;
  if (!KEY_PATTERN.test(key)) return undefined;
  return { scope: account ? 'account' : within, key };
}

/** The name an item is referred to by from anywhere: project keys as is, account keys prefixed. */
export const qualifiedKey = (ref: ItemRef) => (ref.scope === 'account' ? ACCOUNT_PREFIX + ref.key : ref.key);

/** The name a qualified key was written with in its own scope: `@account/footer` -> `footer`. */
export const bareKey = (key: string) => (key.startsWith(ACCOUNT_PREFIX) ? key.slice(ACCOUNT_PREFIX.length) : key);
