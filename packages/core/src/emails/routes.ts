import type { RouteDef } from '../http/route.js';

export const emailRoutes = {} satisfies Record<string, RouteDef>;
