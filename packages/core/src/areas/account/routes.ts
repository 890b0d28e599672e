import * as v from 'valibot';
import { defineRoute } from '../../kernel/api/route.js';
import { uuid } from '../../kernel/api/schemas.js';
import { projectPatch } from '../portal/schemas.js';
import { member, projectRef, projectSettings } from './schemas.js';

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
  updateProject: defineRoute({
    id: 'updateProject',
    method: 'PATCH',
    path: '/projects/{projectId}',
    group: 'account',
    tags: ['Account'],
    summary: "Change a project's hosted help center: handle, on or off, logo, accent color, footer",
    description:
      'The handle is unique across the service; after a change the old handle answers 301 to the new one for 90 days (and stays reserved for this project meanwhile), and `null` frees it at once. A portal needs a handle to be turned on. The accent color must contrast at least 4.5:1 with white. An account-wide write: a live key that reaches every project, with full access (no scope list).',
    tenancy: 'account',
    accountWrite: true,
    fullAccess: true,
    params: { projectId: uuid },
    body: projectPatch,
    response: projectSettings,
    problems: ['portal.handle_taken'],
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
