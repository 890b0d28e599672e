import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { awsClientConfig, env } from '../config.js';

const s3 = new S3Client({
  ...awsClientConfig('s3'),
  // Local S3 stand-ins store streamed uploads corrupted when flexible checksums are on.
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

export async function putObject(key: string, body: Buffer | string, contentType: string) {
  await s3.send(new PutObjectCommand({ Bucket: env.attachmentsBucket, Key: key, Body: body, ContentType: contentType }));
}

export async function getObjectText(key: string): Promise<string | undefined> {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: env.attachmentsBucket, Key: key }));
    return await out.Body?.transformToString('utf8');
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
    throw err;
  }
}

export async function deleteObjects(keys: string[]) {
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    if (chunk.length === 0) continue;
    await s3.send(
      new DeleteObjectsCommand({ Bucket: env.attachmentsBucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }),
    );
  }
}

/** A time-limited GET URL for a stored object. */
export const presignGet = (key: string, expiresInSeconds = 3600) =>
  getSignedUrl(s3, new GetObjectCommand({ Bucket: env.attachmentsBucket, Key: key }), { expiresIn: expiresInSeconds });
