import type { Group, RouteDef } from '@helpdesk/core/kernel/api/route';
import { must } from '@helpdesk/core/kernel/must';
import { gatewayRoutes } from '@helpdesk/core/top/pipeline/match';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { httpGrants } from '../grants.js';
import { DEFAULT_MEMORY_MB, HTTP_MEMORY_MB } from '../memory.js';
import { entryExists, groupAssets, httpEntry } from '../paths.js';
import { HelpdeskFunction, type SharedResources } from './functions.js';

export interface ApiProps {
  stage: string;
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: logs.RetentionDays;
  removalPolicy: RemovalPolicy;
}

/** The group whose Lambda also answers API Gateway's `$default` route (404/405 in the API's error shape). */
export const DEFAULT_ROUTE_GROUP: Group = 'account';

/** `GET /api/v1/tickets/{ticketId}` -> `GETapiv1ticketsticketId` (construct ids cannot hold `/`). */
const routeId = (key: string) => key.replace(/[^A-Za-z0-9]/g, '');

/**
 * HTTP API (payload 2.0). The API and its `$default` stage exist first so that functions can be told
 * the API's URL; `addRoutes` then creates one Lambda per endpoint group that has routes and one API
 * Gateway route per entry of the route table.
 */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;
  readonly functions: Partial<Record<Group, HelpdeskFunction>> = {};
  readonly routes: apigw.HttpRoute[] = [];

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `helpdesk-${props.stage}`,
      description: `Helpdesk API (${props.stage})`,
      createDefaultStage: false,
    });
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            httpMethod: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
  }

  /** The API's base URL (`https://<id>.execute-api.<region>.amazonaws.com`), routes live under /api/v1. */
  get url() {
    return this.httpApi.apiEndpoint;
  }

  addRoutes(routes: readonly RouteDef[], shared: SharedResources, functionsRoot?: string) {
    const groups = new Set<Group>(routes.map((r) => r.group));
    groups.add(DEFAULT_ROUTE_GROUP);
    // Every group that has a route must have its entry module; list all missing ones at once.
    const missing = [...groups].map((g) => httpEntry(g, functionsRoot)).filter((entry) => !entryExists(entry));
    if (missing.length > 0) {
      throw new Error(`Endpoint groups have routes in allRoutes but no Lambda entry module: ${missing.join(', ')}`);
    }
    const integrations = new Map<Group, HttpLambdaIntegration>();
    for (const group of groups) {
      const fn = new HelpdeskFunction(this, `${group}Function`, {
        shared,
        entry: httpEntry(group, functionsRoot),
        description: `HTTP endpoint group ${group} (functions/http/${group}.ts)`,
        serviceName: `helpdesk-http-${group}`,
        grants: httpGrants(group),
        assets: groupAssets(group),
        memorySize: HTTP_MEMORY_MB[group] ?? DEFAULT_MEMORY_MB,
        // API Gateway HTTP APIs give up after 30 s; stop before that so the error is ours.
        timeout: Duration.seconds(29),
      });
      this.functions[group] = fn;
      // One invoke permission per function for this API (not one per route): a group's function answers
      // every path itself (404 for one it does not own), and a permission per route would put the stack
      // past CloudFormation's 500 resources (130 routes, each with its own permission).
      integrations.set(
        group,
        new HttpLambdaIntegration(`${group}Integration`, fn.fn, { scopePermissionToRoute: false }),
      );
    }

    const add = (id: string, key: apigw.HttpRouteKey, group: Group) => {
      const route = new apigw.HttpRoute(this, id, {
        httpApi: this.httpApi,
        routeKey: key,
        integration: must(integrations.get(group), `the ${group} integration`),
      });
      this.routes.push(route);
      return route;
    };
    // One route per path (`ANY`): its group's Lambda tells the methods apart, answers HEAD and a 405.
    for (const route of gatewayRoutes(routes)) {
      add(
        `Route${routeId(route.key)}`,
        apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        route.group,
      );
    }
    add('RouteDefault', apigw.HttpRouteKey.DEFAULT, DEFAULT_ROUTE_GROUP);

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authentication is the API key (Authorization: Bearer sk_...) checked in every group Lambda by the core middleware (SHA-256 lookup, IP allowlist, scopes, tenancy), and some routes are deliberately public (rating page, spec document); an API Gateway authorizer would duplicate that per request.',
    });
  }
}
