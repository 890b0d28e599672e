import { awsClientConfig, env } from '../config.js';
import { lazyClient } from '../lazy-client.js';

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
  await s3.send(
    new sdk.PutObjectCommand({ Bucket: env.attachmentsBucket, Key: key, Body: body, ContentType: contentType }),
  );
}

export async function getObjectText(key: string): Promise<string | undefined> {
  return (await getObjectBytes(key))?.toString('utf8');
}

/** The object's bytes; undefined when there is none under the key. */
export async function getObjectBytes(key: string): Promise<Buffer | undefined> {
  const { sdk, client: s3 } = await s3Client();
  try {
    const out = await s3.send(new sdk.GetObjectCommand({ Bucket: env.attachmentsBucket, Key: key }));
    const bytes = await out.Body?.transformToByteArray();
    return bytes && Buffer.from(bytes);
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
      new sdk.DeleteObjectsCommand({
        Bucket: env.attachmentsBucket,
        Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }
}

/** Raster images a browser shows inline without running anything (SVG can hold script: it is a download). */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** `attachment` (or `inline`) with the file name, ASCII fallback and RFC 6266/5987 UTF-8 form. */
const disposition = (kind: 'inline' | 'attachment', fileName: string) => {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

/**
 * A time-limited GET URL for a stored file. The uploader's type is never trusted to render: S3 answers
 * the download with the headers signed into the URL, so a raster image shows inline under its type and
 * anything else (an upload declared `text/html` included) comes as `application/octet-stream` with
 * `Content-Disposition: attachment`, which browsers save and never render or sniff into a page.
 */
export async function presignGet(key: string, file: { fileName: string; mimeType: string }, expiresInSeconds = 3600) {
  const [{ sdk, client: s3 }, { getSignedUrl }] = await Promise.all([
    s3Client(),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  const image = INLINE_IMAGES.has(file.mimeType.toLowerCase());
  const command = new sdk.GetObjectCommand({
    Bucket: env.attachmentsBucket,
    Key: key,
    ResponseContentType: image ? file.mimeType.toLowerCase() : 'application/octet-stream',
    ResponseContentDisposition: disposition(image ? 'inline' : 'attachment', file.fileName),
  });
  return getSignedUrl(s3, command, { expiresIn: expiresInSeconds });
}

/**
 * A time-limited PUT URL for one object of exactly `size` bytes of `contentType`: both headers are
 * signed (the presigner leaves Content-Type unsigned unless asked), so S3 refuses any other length or type.
 */
export async function presignPut(key: string, contentType: string, size: number, expiresInSeconds: number) {
  const [{ sdk, client: s3 }, { getSignedUrl }] = await Promise.all([
    s3Client(),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return getSignedUrl(
    s3,
    new sdk.PutObjectCommand({
      Bucket: env.attachmentsBucket,
      Key: key,
      ContentType: contentType,
      ContentLength: size,
    }),
    {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-type', 'content-length']),
    },
  );
}

/** The stored object's size in bytes, or undefined when there is no such object. */
export async function objectSize(key: string): Promise<number | undefined> {
  const { sdk, client: s3 } = await s3Client();
  try {
    const out = await s3.send(new sdk.HeadObjectCommand({ Bucket: env.attachmentsBucket, Key: key }));
    return out.ContentLength;
  } catch (err) {
    if (['NotFound', 'NoSuchKey'].includes((err as { name?: string }).name ?? '')) return undefined;
    throw err;
  }
}

/**
 * A server-side copy within the bucket (one request up to 5 GB), keeping the object's content type;
 * false when there is no source object.
 */
export async function copyObject(from: string, to: string): Promise<boolean> {
  const source = `${env.attachmentsBucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
  const { sdk, client: s3 } = await s3Client();
  try {
    await s3.send(new sdk.CopyObjectCommand({ Bucket: env.attachmentsBucket, Key: to, CopySource: source }));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return false;
    throw err;
  }
}

/** Every object under the prefix, with when it was written. */
export async function listObjects(prefix: string): Promise<{ key: string; lastModified: Date }[]> {
  const found: { key: string; lastModified: Date }[] = [];
  const { sdk, client: s3 } = await s3Client();
  let token: string | undefined;
  do {
    const out = await s3.send(
      new sdk.ListObjectsV2Command({ Bucket: env.attachmentsBucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of out.Contents ?? [])
      if (o.Key && o.LastModified) found.push({ key: o.Key, lastModified: o.LastModified });
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return found;
}
