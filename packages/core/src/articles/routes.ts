import type { RouteDef } from '../http/route.js';

export const articleRoutes = {} satisfies Record<string, RouteDef>;
