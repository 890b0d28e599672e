import { Duration, Fn, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** The header by which the portal knows a request came through this distribution (kernel/edge.ts). */
export const EDGE_HEADER = 'X-Helpdesk-Edge';

export interface EdgeProps {
  stage: string;
  httpApi: apigw.HttpApi;
  removalPolicy: RemovalPolicy;
  /** A custom domain for the help centers, with its ACM certificate (us-east-1). */
  domain?: { name: string; certificateArn: string };
}

/**
 * CloudFront in front of the help centers (`/help/*`): pages are kept at the edge and revalidated
 * with their ETag on every view (the origin answers `Cache-Control: public, no-cache`), so a changed
 * article shows at once and an unchanged page costs a 304 from the origin, not its bytes. The origin
 * gets the viewer's address and user agent (rate limits and votes), trusted only with the distribution's
 * secret header, which a request straight to API Gateway cannot carry.
 */
export class Edge extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly secret: secretsmanager.Secret;
  /** The help centers' base URL: the custom domain, else the distribution's own. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'EdgeSecret', {
      secretName: `helpdesk/${props.stage}/edge-secret`,
      description: `helpdesk-${props.stage}: the header CloudFront adds to requests it forwards to the API`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "The edge secret only proves that a request came through this stack's CloudFront distribution; a new value takes a stack update of the distribution (its origin header resolves the secret then), documented in the README, Operations.",
    });

    const origin = new origins.HttpOrigin(Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint)), {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { [EDGE_HEADER]: this.secret.secretValue.unsafeUnwrap() },
    });
    const pages = new cloudfront.CachePolicy(this, 'PortalPages', {
      comment: 'Help center pages: kept as long as the origin says (no-cache: revalidated by ETag every time)',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.days(1),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const forwarded = new cloudfront.OriginRequestPolicy(this, 'PortalForward', {
      comment: 'Help center forms: their content type, and who the visitor is (rate limits, votes)',
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(
        'Content-Type',
        'User-Agent',
        'CloudFront-Viewer-Address',
      ),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `helpdesk-${props.stage} help centers`,
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
          }
        : {}),
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // Everything else is the API itself, never cached; the help centers are the reason for the distribution.
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      additionalBehaviors: {
        '/help/*': {
          origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
          cachePolicy: pages,
          originRequestPolicy: forwarded,
          compress: true,
        },
      },
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Help centers are public and worldwide: no geo restriction.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'No WAF by default (its cost is per web ACL and rule); the request form has its own per-IP and per-address limits and a honeypot. Attach a web ACL with -c for heavier abuse (README, Deploy).',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'API Gateway access logs already record every request that reaches the origin; edge logs would need a bucket per stage.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default CloudFront domain allows TLS 1.0 clients; a custom domain (-c portalDomain) uses TLSv1.2_2021.',
      },
    );
    this.url = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;
  }
}
