import type { PortalSettings } from '../../kernel/tenant.js';
import { portalUrl } from './links.js';

/** A project's portal as the API shows it. */
export const portalViewOf = (settings: PortalSettings | undefined) => ({
  enabled: settings?.enabled ?? false,
  handle: settings?.handle ?? null,
  url: settings?.handle ? portalUrl(settings.handle) : null,
  logoUrl: settings?.logoUrl ?? null,
  accentColor: settings?.accentColor ?? null,
  footer: settings?.footer ?? null,
});
