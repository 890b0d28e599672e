import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export interface AttachmentFile {
  fileName: string;
  mimeType: string;
  data: Uint8Array;
}

/** A failed step of an upload: the API's error body, or S3's status for the PUT. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * Uploads one file of any size the API takes (up to 25,000,000 bytes) straight to S3: POST /attachments,
 * then a PUT of the bytes to the presigned URL. Pass the answer in a message's `attachments`:
 * `client.POST('/tickets/{ticketId}/messages', { body: { body, attachments: [await uploadAttachment(client, file)] } })`.
 */
export async function uploadAttachment(
  client: Client<paths>,
  file: AttachmentFile,
  options: { fetch?: typeof fetch } = {},
): Promise<{ uploadId: string }> {
  const { data, error, response } = await client.POST('/attachments', {
    body: { fileName: file.fileName, mimeType: file.mimeType, size: file.data.byteLength },
  });
  if (!data) throw new UploadError(`POST /attachments answered ${response.status}`, response.status, error);
  const put = await (options.fetch ?? fetch)(data.uploadUrl, {
    method: data.method,
    headers: data.headers,
    body: file.data,
  });
  if (!put.ok) throw new UploadError(`The upload PUT answered ${put.status}`, put.status, await put.text());
  return { uploadId: data.id };
}
