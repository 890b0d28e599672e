import type { RouteDef } from '../http/route.js';

export const templateRoutes = {} satisfies Record<string, RouteDef>;
