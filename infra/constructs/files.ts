import { INBOUND_PREFIX, INBOUND_RAW_DAYS } from '@helpdesk/core/areas/conversations/values';
import { UPLOAD_PREFIX, UPLOAD_TTL_SECONDS } from '@helpdesk/core/areas/tickets/values';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface FilesProps {
  /** How long server access logs are kept. */
  accessLogRetentionDays: number;
}

/** Ticket attachments: private, TLS only, encrypted, with server access logs in a second bucket. */
export class Files extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: FilesProps) {
    super(scope, id);
    // Both buckets are kept when the stack is deleted, in every stage: attachments are customer data and
    // access logs are the audit trail; emptying them is a deliberate operator step (no auto-delete Lambda).
    const removalPolicy = RemovalPolicy.RETAIN;

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(props.accessLogRetentionDays) }],
      removalPolicy,
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket is the server access log destination of the attachments bucket; logging it into itself would loop and into another bucket only moves the finding.',
    });

    this.bucket = new s3.Bucket(this, 'Attachments', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'attachments/',
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Files PUT through POST /attachments and never attached (attaching copies them to the ticket's key).
        { id: 'ExpireUnattachedUploads', prefix: UPLOAD_PREFIX, expiration: Duration.seconds(UPLOAD_TTL_SECONDS) },
        // Raw received mail (SES receipt rule): its message and attachments are in the table and under the ticket.
        { id: 'ExpireRawInboundMail', prefix: INBOUND_PREFIX, expiration: Duration.days(INBOUND_RAW_DAYS) },
      ],
      removalPolicy,
    });
  }
}
