import type { RouteDef } from '../http/route.js';

export const customerRoutes = {} satisfies Record<string, RouteDef>;
