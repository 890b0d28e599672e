import { awsClientConfig, env } from '../config.js';
import { lazyClient } from './lazy-client.js';

// The S3 client (~250 KB bundled) loads on the first object operation, not at every cold start.
const s3Client = lazyClient(
  () => import('@aws-sdk/client-s3'),
  (sdk) =>
    new sdk.S3Client({
      ...awsClientConfig('s3'),
      // Local S3 stand-ins store streamed uploads corrupted when flexible checksums are on.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
);

export async function putObject(key: string, body: Buffer | string, contentType: string) {
  const { sdk, client: s3 } = await s3Client();
  await s3.send(new sdk.PutObjectCommand({ Bucket: env.attachmentsBucket, Key: key, Body: body, ContentType: contentType }));
}

export async function getObjectText(key: string): Promise<string | undefined> {
  const { sdk, client: s3 } = await s3Client();
  try {
    const out = await s3.send(new sdk.GetObjectCommand({ Bucket: env.attachmentsBucket, Key: key }));
    return await out.Body?.transformToString('utf8');
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
    throw err;
  }
}

export async function deleteObjects(keys: string[]) {
  const { sdk, client: s3 } = await s3Client();
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    if (chunk.length === 0) continue;
    await s3.send(
      new sdk.DeleteObjectsCommand({ Bucket: env.attachmentsBucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }),
    );
  }
}

/** A time-limited GET URL for a stored object. */
export async function presignGet(key: string, expiresInSeconds = 3600) {
  const [{ sdk, client: s3 }, { getSignedUrl }] = await Promise.all([s3Client(), import('@aws-sdk/s3-request-presigner')]);
  return getSignedUrl(s3, new sdk.GetObjectCommand({ Bucket: env.attachmentsBucket, Key: key }), { expiresIn: expiresInSeconds });
}
