import * as v from 'valibot';
import { defineRoute } from '../../kernel/api/route.js';
import { member, projectRef } from './schemas.js';

export const accountRoutes = {
  listProjects: defineRoute({
    id: 'listProjects',
    method: 'GET',
    path: '/projects',
    group: 'account',
    tags: ['Account'],
    summary: 'List the projects this API key can reach',
    tenancy: 'account',
    response: v.object({ projects: v.array(projectRef) }),
  }),
  listMembers: defineRoute({
    id: 'listMembers',
    method: 'GET',
    path: '/members',
    group: 'account',
    tags: ['Tickets'],
    summary: 'List account members (valid assignee targets)',
    tenancy: 'account',
    scope: 'tickets:read',
    response: v.object({ members: v.array(member) }),
  }),
};
