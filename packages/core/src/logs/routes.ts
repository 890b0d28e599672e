import type { RouteDef } from '../http/route.js';

export const logRoutes = {} satisfies Record<string, RouteDef>;
