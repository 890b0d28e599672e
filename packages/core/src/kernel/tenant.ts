/**
 * What a tenant is, the vocabulary every layer shares: the environments and plans, the caller a key
 * resolves to, and the keys every record is stored under. Identity resolves them; areas take them.
 */
export const ENVIRONMENTS = ['live', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const PLANS = ['free', 'starter', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];

export interface Allowances {
  /** per month */
  tickets: number;
  /** per month */
  emails: number;
  /** per month */
  logEvents: number;
  /** total stored bytes */
  storageBytes: number;
}

/** A project's hosted help center as stored (areas/portal); absent fields are unset. */
export interface PortalSettings {
  enabled?: boolean;
  handle?: string;
  logoUrl?: string;
  accentColor?: string;
  footer?: string;
}

export interface ProjectRef {
  id: string;
  slug: string;
  name: string;
  senderEmail?: string;
  portal?: PortalSettings;
}

/** Who is calling: resolved from the API key (cached), before any project is chosen. */
export interface Principal {
  keyId: string;
  accountId: string;
  accountName: string;
  plan: Plan;
  allowances: Allowances;
  /** The environment the key's prefix bounds it to. */
  keyEnv: Environment;
  scopes: string[];
  allowIps: string[];
  rateLimit: number;
  /** Projects the key can reach. */
  projects: ProjectRef[];
  /** The key is not limited to some projects (it reaches every project, also ones made later). */
  reachesAllProjects: boolean;
}

/** What every account-level core call takes. */
export interface AccountContext {
  accountId: string;
  plan: Plan;
  allowances: Allowances;
  env: Environment;
  keyId?: string;
}

/** What every project-scoped core call takes: the tenant and environment every record is stored under. */
export interface TenantContext extends AccountContext {
  projectId: string;
  projectSlug: string;
  project: ProjectRef;
}

/** The key every project record is stored under: project and environment (the one tenant key type). */
export type TenantKey = Pick<TenantContext, 'projectId' | 'env'>;
/** A tenant key with its account, for writes that count usage or emit events. */
export type TenantRef = TenantKey & Pick<TenantContext, 'accountId'>;
