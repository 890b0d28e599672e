import { ENVIRONMENTS } from '../tenant.js';

/**
 * The attributes that carry tenant isolation: every project-scoped entity starts its partition keys
 * with them, so no query can cross a project or an environment (test/foundation/tenant-keys.unit.test.ts).
 */
export const tenantAttributes = {
  projectId: { type: 'string', required: true, readOnly: true },
  env: { type: ENVIRONMENTS, required: true, readOnly: true },
} as const;
