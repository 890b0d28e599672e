import type { RouteDef } from '../http/route.js';

export const webhookRoutes = {} satisfies Record<string, RouteDef>;
